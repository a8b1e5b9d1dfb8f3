import type { SettingsReply } from '../../shared/ipc/status.ts';

/**
 * What setup must say about the integration account beyond "stored" or "missing", read from
 * main's settings reply (main decides; the screen only explains):
 * - `setup-required`: credentials are configured but no API base URL is, so the kiosk started
 *   locked on setup instead of the demo (`where`: the backend holding them);
 * - `other-api`: the stored account belongs to another API than the one set here (`origin`), so
 *   setup asks for this one's account;
 * - `unbound`: the stored account names no API and none was configured for it.
 */
export type CredentialsNotice =
  | { readonly kind: 'setup-required'; readonly where: string }
  | { readonly kind: 'other-api'; readonly origin: string; readonly url: string }
  | { readonly kind: 'unbound' };

export function credentialsNotice(reply: SettingsReply | null): CredentialsNotice | null {
  const credentials = reply?.credentials;
  switch (credentials?.problem?.code) {
    case 'API_BASE_URL_REQUIRED':
      return { kind: 'setup-required', where: credentials.backend ?? '—' };
    case 'CREDENTIALS_ORIGIN_MISMATCH':
      return {
        kind: 'other-api',
        origin: credentials.origin ?? '—',
        url: reply?.settings.apiBaseUrl ?? '—',
      };
    case 'CREDENTIALS_UNBOUND':
      return { kind: 'unbound' };
    default:
      return null;
  }
}

/**
 * The settings as the service form shows them. A kiosk locked on setup runs on no service: its
 * base URL field starts empty (until one is saved) rather than showing the placeholder it runs on.
 */
export function serviceFormReply(reply: SettingsReply): SettingsReply {
  const locked = credentialsNotice(reply)?.kind === 'setup-required';
  return locked && !reply.restartRequired
    ? { ...reply, settings: { ...reply.settings, apiBaseUrl: '' } }
    : reply;
}
