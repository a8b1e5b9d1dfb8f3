import { z } from 'zod';
import { AuthRequest } from '../../shared/api/auth.ts';
import { ApiOrigin } from '../../shared/ipc/status.ts';
import { CredentialsCorrupt, InvalidCredentials } from './errors.ts';
import type { Credentials, VaultName } from './vault.ts';

/**
 * The one stored form of the credentials, whatever the backend: the JSON of what `POST /auth`
 * takes, `{"email": "...", "password": "..."}`, checked with the contract's own schema, plus
 * `"origin"`, the API they belong to (`"https://commerce.example.com"`: https, or http to this
 * machine only, no path). The client never sends them to another origin. Entries written before
 * origins were kept, and provisioned files that name none, are bound by the kiosk to the base URL
 * its deployment configured (see `credentialsProvider`).
 */
const StoredCredentials = z.strictObject({
  email: AuthRequest.shape.email,
  password: AuthRequest.shape.password,
  origin: ApiOrigin.optional(),
});

/** Far above any real e-mail and password; a bigger value is not credentials. */
export const MAX_STORED_CREDENTIALS_BYTES = 64 * 1024;

const ORIGIN_RULE =
  '"origin" must be the API\'s origin, like "https://commerce.example.com": https (or http to this machine only), no path';

/** `https://Host:443/` → `https://host`: the form origins are compared in. */
export function normaliseOrigin(origin: string): string {
  return new URL(origin).origin;
}

/** Checks credentials given to a vault; the reason names the field, never its value. */
export function checkCredentials(input: unknown): Credentials {
  const parsed = StoredCredentials.safeParse(input);
  if (parsed.success) return credentialsOf(parsed.data);
  const fields = new Set(parsed.error.issues.map((issue) => String(issue.path[0] ?? '')));
  const problems: string[] = [];
  if (fields.has('email')) problems.push('the e-mail must be a non-empty string');
  if (fields.has('password')) problems.push('the password must be a non-empty string');
  if (fields.has('origin')) problems.push(ORIGIN_RULE);
  if (problems.length === 0) problems.push('expected exactly {email, password, origin?}');
  throw new InvalidCredentials(problems.join('; '));
}

export function serializeCredentials(credentials: Credentials): string {
  const { email, password, origin } = checkCredentials(credentials);
  return JSON.stringify(origin === undefined ? { email, password } : { email, password, origin });
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
  const parsed = StoredCredentials.safeParse(value);
  if (!parsed.success) {
    const onlyOrigin = parsed.error.issues.every((issue) => issue.path[0] === 'origin');
    throw new CredentialsCorrupt(
      backend,
      onlyOrigin
        ? ORIGIN_RULE
        : 'not exactly {"email": "...", "password": "...", "origin": "..."} with e-mail and password non-empty',
    );
  }
  return credentialsOf(parsed.data);
}

function credentialsOf(data: z.infer<typeof StoredCredentials>): Credentials {
  return data.origin === undefined
    ? { email: data.email, password: data.password }
    : { email: data.email, password: data.password, origin: normaliseOrigin(data.origin) };
}
