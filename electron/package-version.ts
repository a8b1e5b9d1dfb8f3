import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'commerce-kiosk';

let ownVersion: string | undefined;

/**
 * This package's version, from its own package.json: the nearest one above this module named
 * commerce-kiosk, so the same code finds it from the source tree, from `dist/` in an
 * integrator's node_modules and from a packed app.asar.
 */
export function packageVersion(): string {
  if (ownVersion !== undefined) return ownVersion;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = readManifest(join(dir, 'package.json'));
    if (manifest?.name === PACKAGE_NAME && typeof manifest.version === 'string') {
      ownVersion = manifest.version;
      return ownVersion;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${PACKAGE_NAME}: its package.json was not found`);
    dir = parent;
  }
}

function readManifest(path: string): { name?: unknown; version?: unknown } | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown; version?: unknown };
  } catch {
    return undefined;
  }
}
