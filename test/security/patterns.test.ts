import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileError, loadProfileFile } from '../../electron/profile/index.ts';
import {
  IntegrationProfile,
  MAX_SCAN_CODE_LENGTH,
  defaultProfile,
  giftCardIdFromScan,
} from '../../shared/profile/index.ts';
import {
  ADMIN_PIN,
  type KioskFixture,
  send,
  startKioskFixture,
} from '../electron/kiosk/support.ts';

/**
 * `scan.pattern` runs in the main process on every scanned code. Before: `^(?<id>(a+)+)$` on a
 * 28-character code blocked it for a second, doubling per character, and codes up to 256
 * characters were accepted. Now a pattern that can backtrack catastrophically is refused when the
 * profile is loaded (at every door, since they all load it), and a pattern only ever runs on a
 * code of at most 128 characters. Nothing here runs a refused pattern: the refusal is the check.
 */

const defaultText = readFileSync(
  new URL('../../shared/profile/default-profile.json', import.meta.url),
  'utf8',
);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-security-patterns-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function profileFile(pattern: string, name = 'profile.json'): string {
  const profile = JSON.parse(defaultText) as { scan: { pattern: string | null } };
  profile.scan.pattern = pattern;
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(profile));
  return path;
}

const catastrophic = [
  // The attack: nested quantifiers.
  '^(?<id>(a+)+)$',
  '^(?<id>(?:\\d+)*)$',
  '^(?<id>(a|a)*)$',
  // Ambiguous repetition: alternatives, or a variable count, under a repetition.
  '^(?<id>(a|ab)+)$',
  '^(?<id>(\\d{2,3})+)$',
  // Polynomial: three open-ended repetitions, unanchored.
  '\\d*\\d*\\d*x',
  // Exponential in the pattern's own length.
  `^${'(a|a)'.repeat(20)}$`,
  // Back-references and look-arounds.
  '^(?<id>a+)\\k<id>$',
  '^(?=(a+)+$)(?<id>.*)$',
];

describe('scan.pattern', () => {
  it('a pattern that can backtrack catastrophically is refused at load, saying why', () => {
    for (const pattern of catastrophic) {
      const parsed = IntegrationProfile.safeParse({ ...defaultProfile, scan: { pattern } });
      expect(parsed.success, pattern).toBe(false);
      let refusal: unknown;
      try {
        loadProfileFile(profileFile(pattern));
      } catch (error) {
        refusal = error;
      }
      expect(refusal, pattern).toBeInstanceOf(ProfileError);
      expect((refusal as ProfileError).message).toMatch(
        /PROFILE_INVALID: .*: scan\.pattern: (a repetition of something that itself repeats|too many ways to try a match|a (back-reference|look-around))/,
      );
    }
    expect(() => loadProfileFile(profileFile('^(?<id>(a+)+)$'))).toThrow(
      /scan\.pattern: a repetition of something that itself repeats or has alternatives \(character 8\)/,
    );
  });

  it('the patterns barcodes need still load and match', () => {
    const cases: [string, string, string | null][] = [
      ['^GC(?<id>\\d{16})$', 'GC1234567890123456', '1234567890123456'],
      ['^(?:GC)?(?<id>[0-9A-Z]+)$', 'GCAB12', 'AB12'],
      ['^(?<id>\\d+)-\\d+$', '123-45', '123'],
      ['^%B(?<id>\\d{16})\\^', '%B1234567890123456^DOE', '1234567890123456'],
      ['^https://shop\\.example/g/(?<id>[A-Za-z0-9]+)$', 'https://shop.example/g/Zx9', 'Zx9'],
      ['(?<id>\\d{13})', 'EAN 4006381333931', '4006381333931'],
      ['^GC(?<id>\\d{16})$', 'XX1234567890123456', null],
    ];
    for (const [pattern, code, id] of cases) {
      const profile = loadProfileFile(profileFile(pattern));
      expect(giftCardIdFromScan(profile, code), pattern).toBe(id);
    }
  });

  it('a code longer than any barcode matches nothing, whatever the pattern', () => {
    const profile = loadProfileFile(profileFile('^(?<id>[a-z0-9]+)$'));
    expect(giftCardIdFromScan(profile, 'a'.repeat(MAX_SCAN_CODE_LENGTH))).toBe(
      'a'.repeat(MAX_SCAN_CODE_LENGTH),
    );
    expect(giftCardIdFromScan(profile, 'a'.repeat(MAX_SCAN_CODE_LENGTH + 1))).toBeNull();
    expect(giftCardIdFromScan(defaultProfile, 'a'.repeat(MAX_SCAN_CODE_LENGTH + 1))).toBeNull();
  });

  describe('at the doors', () => {
    let fixture: KioskFixture;
    beforeAll(async () => {
      fixture = await startKioskFixture();
    }, 60_000);
    afterAll(() => fixture?.close());

    it('setup refuses the profile; a 256-character code is not run through any pattern', async () => {
      const refused = await send(fixture, 'updateSettings', {
        adminPin: ADMIN_PIN,
        changes: { profilePath: profileFile('^(?<id>(a+)+)$', 'setup.json') },
      });
      expect(refused).toMatchObject({ ok: false });
      expect(JSON.stringify(refused)).toMatch(/scan\.pattern: a repetition/);
      expect(fixture.services.parts.settings.overrides.profilePath).toBeUndefined();

      const saved = await send(fixture, 'updateSettings', {
        adminPin: ADMIN_PIN,
        changes: { profilePath: profileFile('^(?<id>[a-z_0-9-]+)$', 'fine.json') },
      });
      expect(saved).toMatchObject({ ok: true });
      const long = await send(fixture, 'getGiftCard', { code: 'a'.repeat(256) });
      expect(long).toMatchObject({
        ok: false,
        error: { code: 'GIFT_CARD_CODE_UNRECOGNISED' },
      });
    });
  });
});
