/**
 * Bundles the Electron side for running and packaging: `dist/electron/main.js` (ESM, the main
 * process with the services and the embedded sandbox) and `dist/electron/preload.cjs` (one
 * CommonJS file: a sandboxed preload cannot load modules, it gets `electron` and nothing else).
 * `node electron/host/build-electron.ts`; the renderer is built separately (`npm run build:renderer`).
 */
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outDir = join(root, 'dist', 'electron');
const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export async function buildElectron(): Promise<void> {
  // The preload: everything inlined except `electron` itself.
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      target: 'node22',
      lib: {
        entry: join(root, 'electron', 'preload.ts'),
        formats: ['cjs'],
        fileName: () => 'preload.cjs',
      },
      rollupOptions: { external: ['electron'] },
    },
  });
  // The main process: Node built-ins, `electron` and native or dynamic packages stay external
  // (node_modules ships with the app); our own TypeScript is bundled.
  await build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: {
      outDir,
      emptyOutDir: false,
      minify: false,
      ssr: join(root, 'electron', 'host', 'main.ts'),
      target: 'node22',
      rollupOptions: {
        external: [...nodeBuiltins, 'electron', 'keytar'],
        output: { format: 'es', entryFileNames: 'main.js' },
      },
    },
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildElectron();
  process.stdout.write(`built ${outDir}/main.js and preload.cjs\n`);
}
