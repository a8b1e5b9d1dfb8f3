import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { z } from 'zod';
import { DEFAULT_LOG_FILES, DEFAULT_LOG_MAX_BYTES, createFileSink } from './file-sink.ts';
import type { LogSink } from './log-sink.ts';
import { createStreamSink } from './stream-sink.ts';

/** Where the kiosk's log goes, from its environment. */
export interface LogSettings {
  /** KIOSK_LOG: a file (absolute); absent, stderr. */
  readonly file?: string;
  /** KIOSK_LOG_MAX_BYTES: the size at which the file is rotated. */
  readonly maxBytes: number;
  /** KIOSK_LOG_FILES: files kept, the current one included. */
  readonly maxFiles: number;
}

const MIN_LOG_BYTES = 4096;
const MAX_LOG_FILES = 100;

const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const settingSchemas = {
  KIOSK_LOG_MAX_BYTES: wholeNumber(MIN_LOG_BYTES, Number.MAX_SAFE_INTEGER),
  KIOSK_LOG_FILES: wholeNumber(1, MAX_LOG_FILES),
} as const;

function setting(
  env: Readonly<Record<string, string | undefined>>,
  name: keyof typeof settingSchemas,
  fallback: number,
): number {
  const value = env[name];
  if (value === undefined || value === '') return fallback;
  const parsed = settingSchemas[name].safeParse(value);
  if (!parsed.success) {
    throw new RangeError(`${name}: ${parsed.error.issues.at(-1)?.message ?? 'not a number'}`);
  }
  return parsed.data;
}

/** Reads KIOSK_LOG, KIOSK_LOG_MAX_BYTES, KIOSK_LOG_FILES; a bad value throws, naming it. */
export function readLogSettings(env: Readonly<Record<string, string | undefined>>): LogSettings {
  const file = env['KIOSK_LOG'];
  return {
    ...(file ? { file: resolve(file) } : {}),
    maxBytes: setting(env, 'KIOSK_LOG_MAX_BYTES', DEFAULT_LOG_MAX_BYTES),
    maxFiles: setting(env, 'KIOSK_LOG_FILES', DEFAULT_LOG_FILES),
  };
}

/** The rotating file of the settings, else the given stream (stderr). */
export function openLogSink(settings: LogSettings, stderr: Writable): LogSink {
  return settings.file === undefined
    ? createStreamSink(stderr)
    : createFileSink({
        path: settings.file,
        maxBytes: settings.maxBytes,
        maxFiles: settings.maxFiles,
      });
}
