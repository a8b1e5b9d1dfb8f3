import type { IntegrationProfile } from './integration-profile.ts';
import { MAX_SCAN_CODE_LENGTH } from './scan-pattern.ts';

/**
 * The gift-card id a scanned or typed code stands for, or null when the code does not match the
 * profile's pattern. Default: the code is the id. A code longer than any real barcode
 * (MAX_SCAN_CODE_LENGTH) matches nothing: the pattern, checked when the profile was loaded
 * (scan-pattern.ts), is only ever run on bounded input.
 */
export function giftCardIdFromScan(profile: IntegrationProfile, code: string): string | null {
  const trimmed = code.trim();
  if (trimmed === '' || trimmed.length > MAX_SCAN_CODE_LENGTH) return null;
  const { pattern, prefix } = profile.scan;
  if (pattern === null) return prefix + trimmed;
  const match = new RegExp(pattern, 'u').exec(trimmed);
  if (!match) return null;
  const id = match.groups?.['id'] ?? match[0];
  return id === '' ? null : prefix + id;
}
