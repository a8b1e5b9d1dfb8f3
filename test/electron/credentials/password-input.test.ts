import { PassThrough } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { InvalidCredentials, PasswordEntryAborted } from '../../../electron/credentials/errors.ts';
import { type PasswordStream, readPassword } from '../../../electron/credentials/password-input.ts';

/**
 * Reading the password. Piped input with real streams; the terminal path with a PassThrough that
 * has the TTY surface (raw mode is recorded). The same path on a real pseudo-terminal is tested
 * end to end in credentials-command.test.ts.
 */

function piped(text: string | null): PasswordStream {
  const stream = new PassThrough();
  if (text !== null) stream.end(text);
  else stream.end();
  return stream;
}

describe('piped', () => {
  test.each([
    ['pw-one\n', 'pw-one'],
    ['pw-crlf\r\nnext line\n', 'pw-crlf'],
    ['no-newline', 'no-newline'],
    ['spaces kept  \n', 'spaces kept  '],
  ])('%j', async (input, expected) => {
    expect(await readPassword(piped(input), { prompt: () => undefined })).toBe(expected);
  });

  test('empty or too long is refused', async () => {
    await expect(readPassword(piped(''), { prompt: () => undefined })).rejects.toBeInstanceOf(
      InvalidCredentials,
    );
    await expect(readPassword(piped('\n'), { prompt: () => undefined })).rejects.toBeInstanceOf(
      InvalidCredentials,
    );
    await expect(
      readPassword(piped(`${'x'.repeat(20)}\n`), { prompt: () => undefined, maxLength: 10 }),
    ).rejects.toThrow(/longer than 10/);
  });
});

describe('terminal', () => {
  function terminal() {
    const stream = new PassThrough() as PassThrough & {
      isTTY: boolean;
      setRawMode: (mode: boolean) => void;
    };
    const modes: boolean[] = [];
    stream.isTTY = true;
    stream.setRawMode = (mode) => {
      modes.push(mode);
    };
    return { stream, modes };
  }

  test('raw mode, nothing printed per character, editing keys, raw mode restored', async () => {
    const { stream, modes } = terminal();
    const printed: string[] = [];
    const reading = readPassword(stream, { prompt: (text) => printed.push(text) });
    stream.write('sec');
    stream.write('\u001b[D'); // an arrow key
    stream.write('rx\u007fet'); // a typo, Backspace
    stream.write('\r');
    expect(await reading).toBe('secret');
    expect(modes).toEqual([true, false]);
    expect(printed).toEqual(['Password (not shown): ', '\n']);
  });

  test('Ctrl-U clears the line; Ctrl-C aborts', async () => {
    const cleared = terminal();
    const reading = readPassword(cleared.stream, { prompt: () => undefined });
    cleared.stream.write('wrong\u0015right\r');
    expect(await reading).toBe('right');

    const aborted = terminal();
    const abort = readPassword(aborted.stream, { prompt: () => undefined });
    aborted.stream.write('half\u0003');
    await expect(abort).rejects.toBeInstanceOf(PasswordEntryAborted);
    expect(aborted.modes).toEqual([true, false]);
  });

  test('Ctrl-D on an empty line aborts', async () => {
    const { stream } = terminal();
    const reading = readPassword(stream, { prompt: () => undefined });
    stream.write('\u0004');
    await expect(reading).rejects.toBeInstanceOf(PasswordEntryAborted);
  });
});
