/**
 * Bundles the Electron side for running and packaging: `dist/electron/main.js` (ESM, the main
 * process with the services and the embedded sandbox) and `dist/electron/preload.cjs` (one
 * CommonJS file: a sandboxed preload cannot load modules, it gets `electron` and nothing else).
 * `node build/build-electron.ts`; the renderer is built separately (`npm run build:renderer`).
 * A build script (it imports vite, a devDependency), so it lives in build/, outside the shipped code.
 */
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'vite';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'electron');
const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

/** What both bundles share: our own root, no config file, unminified Node code in dist/electron. */
function bundle(options: BuildOptions): ReturnType<typeof build> {
  return build({
    configFile: false,
    logLevel: 'warn',
    root,
    build: { outDir, minify: false, target: 'node22', ...options },
  });
}

export async function buildElectron(): Promise<void> {
  // The preload: everything inlined except `electron` itself.
  await bundle({
    emptyOutDir: true,
    lib: {
      entry: join(root, 'electron', 'preload.ts'),
      formats: ['cjs'],
      fileName: () => 'preload.cjs',
    },
    rollupOptions: { external: ['electron'] },
  });
  // The main process: Node built-ins, `electron` and native or dynamic packages stay external
  // (node_modules ships with the app); our own TypeScript is bundled.
  await bundle({
    emptyOutDir: false,
    ssr: join(root, 'electron', 'host', 'main.ts'),
    rollupOptions: {
      external: [...nodeBuiltins, 'electron', 'keytar'],
      output: { format: 'es', entryFileNames: 'main.js' },
    },
  });
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildElectron();
  process.stdout.write(`built ${outDir}/main.js and preload.cjs\n`);
}
