import type { z } from 'zod';
import { RecordId } from '../../shared/ipc/common.ts';
import { CallerDebitReference, ReportDate } from '../../shared/ipc/gift-cards.ts';
import { type DebitState, debitStates } from '../outbox/index.ts';
import { CommandError } from './command.ts';

/** The values of `kioskctl outbox` flags, checked before anything is opened: USAGE errors. */

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new CommandError('USAGE', `${flag} is required`);
  return value;
}

/**
 * Euros as a technician types them: digits, optionally a dot and one or two decimals. The amount
 * rule itself (`DebitAmount`: positive, at most 100,000) is the outbox's, as for every door.
 */
export function parseAmount(text: string): number {
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) {
    throw new CommandError(
      'USAGE',
      `--amount expects euros like 12.50 (at most two decimals), got "${text}"`,
    );
  }
  return Number(text);
}

/** The gift card's id: the id rule of the IPC message (1 to 64 characters, well-formed). */
export function parseCardId(text: string): string {
  return checked(RecordId, text, '--card');
}

/**
 * The caller's reference: the rule of the IPC message and of the outbox (letters, digits, spaces
 * and `. : / # - _`, at most 47 characters): no e-mail address, no line break.
 */
export function parseReference(text: string): string {
  return checked(CallerDebitReference, text, '--reference');
}

function checked<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new CommandError(
    'USAGE',
    `${flag}: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`,
  );
}

export function parseSeconds(text: string, flag: string): number {
  if (!/^\d+(\.\d+)?$/.test(text))
    throw new CommandError('USAGE', `${flag} expects seconds, got "${text}"`);
  return Math.round(Number(text) * 1000);
}

export function parseId(text: string | undefined): number {
  if (text === undefined || !/^\d{1,15}$/.test(text)) {
    throw new CommandError(
      'USAGE',
      `expects the debit's local id (a number), got ${text === undefined ? 'nothing' : `"${text}"`}`,
    );
  }
  return Number(text);
}

export function parseState(text: string): DebitState {
  if (!(debitStates as readonly string[]).includes(text)) {
    throw new CommandError('USAGE', `--state must be one of ${debitStates.join(', ')}`);
  }
  return text as DebitState;
}

export function parsePolicy(text: string | undefined): 'prefer_online' | 'require_online' {
  if (text === undefined || text === 'prefer_online' || text === 'require_online')
    return text ?? 'prefer_online';
  throw new CommandError('USAGE', '--policy must be prefer_online or require_online');
}

/** A local calendar day, `YYYY-MM-DD`, a real date (no 2026-02-30). */
export function parseDate(text: string): string {
  if (!ReportDate.safeParse(text).success)
    throw new CommandError('USAGE', `--date expects a day like 2026-11-23, got "${text}"`);
  return text;
}
