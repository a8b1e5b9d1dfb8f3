import type { Credentials } from './vault.ts';

/**
 * Removes the given credentials from a text that came from outside (an OS keychain error, an
 * errno message). Those should never hold a secret; this makes sure they cannot carry one into
 * an error message, a log or a terminal.
 */
export function scrubCredentials(
  text: string,
  credentials: Partial<Credentials> | undefined,
): string {
  let out = text;
  for (const secret of [credentials?.password, credentials?.email]) {
    // A one-character value would blank every occurrence of a letter and protect nothing.
    if (secret !== undefined && secret.length >= 2) out = out.split(secret).join('[redacted]');
  }
  return out;
}

/** The first line of an error's message: native errors sometimes append stacks or dumps. */
export function errorSummary(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n', 1)[0]?.trim() ?? '';
  return line === '' ? (error instanceof Error ? error.name : 'unknown error') : line;
}

/** A filesystem error's errno code (`ENOENT`, `EACCES`...), else its summary. */
export function errnoOf(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error
    ? String((error as { code: unknown }).code)
    : errorSummary(error);
}
