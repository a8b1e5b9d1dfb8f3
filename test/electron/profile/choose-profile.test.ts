import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { silentLogger } from '../../../electron/logging/index.ts';
import { chooseProfile, ProfileInForce } from '../../../electron/profile/index.ts';
import { defaultProfile } from '../../../shared/profile/index.ts';

/**
 * One rule picks the integration profile, for the kiosk app and every kioskctl command: the
 * flag (kioskctl only), then KIOSK_API_PROFILE, then the file saved in Setup, then the default.
 */

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-choose-profile-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('flag, then environment, then Setup, then the default; an empty value is not given', () => {
  const env = { KIOSK_API_PROFILE: '/env.json' };
  expect(chooseProfile({ flag: '/flag.json', env, settingsPath: '/setup.json' })).toEqual({
    source: 'flag',
    path: '/flag.json',
  });
  expect(chooseProfile({ flag: '', env, settingsPath: '/setup.json' })).toEqual({
    source: 'environment',
    path: '/env.json',
  });
  expect(chooseProfile({ env: { KIOSK_API_PROFILE: '' }, settingsPath: '/setup.json' })).toEqual({
    source: 'settings',
    path: '/setup.json',
  });
  expect(chooseProfile({ env: {}, settingsPath: null })).toEqual({ source: 'default', path: null });
});

it('the kiosk app follows the same rule', () => {
  const named = (name: string) => {
    const path = join(dir, `${name}.json`);
    writeFileSync(path, JSON.stringify({ ...defaultProfile, name }));
    return path;
  };
  const setup = named('setup');
  const deployment = named('deployment');
  const app = (environmentPath?: string) =>
    new ProfileInForce({ environmentPath, settingsPath: setup, logger: silentLogger }).description;
  expect(app()).toMatchObject({ name: 'setup', source: 'settings', path: setup });
  expect(app(deployment)).toMatchObject({
    name: 'deployment',
    source: 'environment',
    path: deployment,
  });
  expect(
    new ProfileInForce({ settingsPath: null, logger: silentLogger }).description,
  ).toMatchObject({ name: defaultProfile.name, source: 'default', path: null });
});
