import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openLogSink, readLogSettings } from '../../../electron/logging/log-settings.ts';

describe('the log settings (KIOSK_LOG, KIOSK_LOG_MAX_BYTES, KIOSK_LOG_FILES)', () => {
  it('default to stderr, or a file of 10 MiB rotated with 5 kept', () => {
    expect(readLogSettings({})).toEqual({ maxBytes: 10 * 1024 * 1024, maxFiles: 5 });
    expect(
      readLogSettings({
        KIOSK_LOG: 'logs/kiosk.log',
        KIOSK_LOG_MAX_BYTES: '65536',
        KIOSK_LOG_FILES: '2',
      }),
    ).toEqual({ file: join(process.cwd(), 'logs/kiosk.log'), maxBytes: 65_536, maxFiles: 2 });
  });

  it.each([
    ['KIOSK_LOG_MAX_BYTES', '10M', /KIOSK_LOG_MAX_BYTES: must be a whole number/],
    ['KIOSK_LOG_MAX_BYTES', '100', /KIOSK_LOG_MAX_BYTES: must be at least 4096/],
    ['KIOSK_LOG_FILES', '0', /KIOSK_LOG_FILES: must be at least 1/],
    ['KIOSK_LOG_FILES', '-1', /KIOSK_LOG_FILES: must be a whole number/],
    ['KIOSK_LOG_FILES', '1000', /KIOSK_LOG_FILES: must be at most 100/],
  ])('refuse %s=%s, naming it', (name, value, message) => {
    expect(() => readLogSettings({ [name]: value })).toThrow(message);
  });

  it('open the file, or the stream given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-log-settings-'));
    try {
      const file = openLogSink(
        readLogSettings({ KIOSK_LOG: join(dir, 'kiosk.log') }),
        process.stderr,
      );
      file.write('{"to":"file"}');
      await file.close();
      expect(readFileSync(join(dir, 'kiosk.log'), 'utf8')).toBe('{"to":"file"}\n');

      const stream = new PassThrough();
      const onStream = openLogSink(readLogSettings({}), stream);
      onStream.write('{"to":"stream"}');
      expect(String(stream.read())).toBe('{"to":"stream"}\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
