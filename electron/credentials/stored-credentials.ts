import { AuthRequest } from '../../shared/api/auth.ts';
import { CredentialsCorrupt, InvalidCredentials } from './errors.ts';
import type { Credentials, VaultName } from './vault.ts';

/**
 * The one stored form of the credentials, whatever the backend: the JSON of exactly what
 * `POST /auth` takes, `{"email": "...", "password": "..."}`, checked with the contract's own schema.
 */

/** Far above any real e-mail and password; a bigger value is not credentials. */
export const MAX_STORED_CREDENTIALS_BYTES = 64 * 1024;

/** Checks credentials given to a vault; the reason names the field, never its value. */
export function checkCredentials(input: unknown): Credentials {
  const parsed = AuthRequest.safeParse(input);
  if (parsed.success) return { email: parsed.data.email, password: parsed.data.password };
  const fields = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')));
  const problems: string[] = [];
  if (fields.has('email')) problems.push('the e-mail must be a non-empty string');
  if (fields.has('password')) problems.push('the password must be a non-empty string');
  if (problems.length === 0) problems.push('expected exactly {email, password}');
  throw new InvalidCredentials(problems.join('; '));
}

export function serializeCredentials(credentials: Credentials): string {
  const { email, password } = checkCredentials(credentials);
  return JSON.stringify({ email, password });
}

/**
 * Reads a stored value. JSON.parse's own message quotes the text it choked on (which may be the
 * password), so it is dropped, and so is the schema's: the error only says what kind of wrong.
 */
export function parseStoredCredentials(text: string, backend: VaultName): Credentials {
  if (Buffer.byteLength(text, 'utf8') > MAX_STORED_CREDENTIALS_BYTES) {
    throw new CredentialsCorrupt(backend, 'larger than any credentials');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new CredentialsCorrupt(backend, 'not JSON');
  }
  const parsed = AuthRequest.safeParse(value);
  if (!parsed.success) {
    throw new CredentialsCorrupt(
      backend,
      'not exactly {"email": "...", "password": "..."} with both non-empty',
    );
  }
  return { email: parsed.data.email, password: parsed.data.password };
}
