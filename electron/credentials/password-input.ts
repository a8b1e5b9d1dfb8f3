import type { Readable } from 'node:stream';
import { InvalidCredentials, PasswordEntryAborted } from './errors.ts';

/**
 * Reads a password from stdin without showing it.
 * - On a terminal: raw mode, so the terminal echoes nothing, and nothing is printed per typed
 *   character either (not even `*`: the length of a password is a hint). Enter ends it,
 *   Backspace deletes, Ctrl-U clears, Ctrl-C or Ctrl-D on an empty line aborts.
 * - Otherwise (a pipe, a provisioning script, a test): one line, without its line ending.
 */

/** process.stdin, or any readable with the same optional TTY surface. */
export type PasswordStream = Readable & {
  readonly isTTY?: boolean;
  setRawMode?: (mode: boolean) => unknown;
};

export interface ReadPasswordOptions {
  /** Where the prompt and the final newline go on a terminal (stderr: stdout is for results). */
  readonly prompt: (text: string) => void;
  readonly promptText?: string;
  readonly maxLength?: number;
}

const DEFAULT_MAX_LENGTH = 1_024;

export async function readPassword(
  input: PasswordStream,
  options: ReadPasswordOptions,
): Promise<string> {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const password =
    input.isTTY === true && typeof input.setRawMode === 'function'
      ? await readFromTerminal(input, options)
      : await readLine(input, maxLength);
  if (password === '') throw new InvalidCredentials('the password is empty');
  if (password.length > maxLength) {
    throw new InvalidCredentials(`the password is longer than ${maxLength} characters`);
  }
  return password;
}

async function readLine(input: Readable, maxLength: number): Promise<string> {
  input.setEncoding('utf8');
  let buffer = '';
  for await (const chunk of input as AsyncIterable<string>) {
    buffer += chunk;
    const end = buffer.indexOf('\n');
    if (end >= 0) {
      buffer = buffer.slice(0, end);
      break;
    }
    // Bounded: a file piped in by mistake is not read to its end.
    if (buffer.length > maxLength * 4) break;
  }
  return buffer.endsWith('\r') ? buffer.slice(0, -1) : buffer;
}

function readFromTerminal(input: PasswordStream, options: ReadPasswordOptions): Promise<string> {
  const setRawMode = (mode: boolean) => input.setRawMode?.(mode);
  return new Promise<string>((resolve, reject) => {
    let chars: string[] = [];
    const finish = (outcome: () => void) => {
      input.off('data', onData);
      input.off('end', onEnd);
      setRawMode(false);
      input.pause();
      options.prompt('\n');
      outcome();
    };
    const onEnd = () => finish(() => reject(new PasswordEntryAborted()));
    const onData = (chunk: string) => {
      // Arrow and function keys arrive as escape sequences: not part of a password.
      if (chunk.startsWith('\u001b')) return;
      for (const char of chunk) {
        switch (char) {
          case '\r':
          case '\n':
            finish(() => resolve(chars.join('')));
            return;
          case '\u0003':
            finish(() => reject(new PasswordEntryAborted()));
            return;
          case '\u0004':
            if (chars.length === 0) {
              finish(() => reject(new PasswordEntryAborted()));
              return;
            }
            break;
          case '\u007f':
          case '\b':
            chars.pop();
            break;
          case '\u0015':
            chars = [];
            break;
          default:
            if (char >= ' ') chars.push(char);
        }
      }
    };
    // Raw mode before the prompt: a fast typist's first keys must not be echoed.
    setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.on('end', onEnd);
    input.resume();
    options.prompt(options.promptText ?? 'Password (not shown): ');
  });
}
