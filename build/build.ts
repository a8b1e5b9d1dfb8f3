/**
 * `npm run build`: the package's `dist/`, what an integrator installs and electron-builder packs.
 * - `dist/electron`, `dist/shared`, `dist/sandbox`: ESM JavaScript and `.d.ts`, one file per source
 *   file, by tsc (tsconfig.build.json); the entry points are `electron/exports/*` and `sandbox/`;
 * - `dist/electron/preload.cjs`: the preload, one CommonJS file (a sandboxed preload cannot load
 *   modules; it gets `electron` and nothing else), stamped with the package version;
 * - `dist/renderer`: the kiosk UI, by Vite (vite.config.ts), stamped with the package version.
 * `node build/build.ts [--only=renderer]`.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { preloadBanner } from '../electron/host/asset-version.ts';
import { packageVersion } from '../electron/package-version.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
/** Built files that npm links as commands: executable, as their shebang expects. */
const BINS = ['electron/cli/kioskctl.js', 'sandbox/main.js'];

function compile(): void {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  for (const bin of BINS) chmodSync(join(dist, bin), 0o755);
}

async function bundlePreload(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      outDir: join(dist, 'electron'),
      emptyOutDir: false,
      minify: false,
      target: 'node22',
      lib: {
        entry: join(root, 'electron', 'preload.ts'),
        formats: ['cjs'],
        fileName: () => 'preload.cjs',
      },
      rolldownOptions: {
        external: ['electron'],
        output: { banner: preloadBanner(packageVersion()) },
      },
    },
  });
}

async function bundleRenderer(): Promise<void> {
  await build({ configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
}

const { values } = parseArgs({ options: { only: { type: 'string' } } });
if (values.only === 'renderer') {
  await bundleRenderer();
} else if (values.only === undefined) {
  rmSync(dist, { recursive: true, force: true });
  compile();
  await bundlePreload();
  await bundleRenderer();
  process.stdout.write(`built ${dist} (commerce-kiosk ${packageVersion()})\n`);
} else {
  process.stderr.write(`build: --only takes "renderer" (got "${values.only}")\n`);
  process.exit(2);
}
