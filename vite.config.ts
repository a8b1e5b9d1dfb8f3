import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { RENDERER_VERSION_META } from './electron/host/asset-version.ts';
import { packageVersion } from './electron/package-version.ts';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const sharedDir = fileURLToPath(new URL('./shared/', import.meta.url));

/**
 * The app's chunk (renderer/main.tsx, imported by renderer/boot.ts once the first requests are on
 * their way) fetched and compiled from the start, as a static import would be, but evaluated only
 * when boot.ts imports it.
 */
function preloadApp(): Plugin {
  return {
    name: 'kiosk-preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const app = Object.values(bundle ?? {}).find(
          (output) =>
            output.type === 'chunk' && output.facadeModuleId?.endsWith('/renderer/main.tsx'),
        );
        if (app === undefined) throw new Error('the build has no chunk for renderer/main.tsx');
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `./${app.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

/**
 * The package version in the page, which the main process reads before serving the folder: a
 * renderer and a main process of two releases never run together.
 */
function versionStamp(): Plugin {
  return {
    name: 'kiosk-version-stamp',
    apply: 'build',
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { name: RENDERER_VERSION_META, content: packageVersion() },
        injectTo: 'head-prepend',
      },
    ],
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./renderer/', import.meta.url)),
  // Relative asset URLs: the kiosk loads the build from its own app:// protocol, not from a server root.
  base: './',
  plugins: [react(), preloadApp(), versionStamp()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer/', import.meta.url)),
    emptyOutDir: true,
    rolldownOptions: {
      treeshake: {
        // shared/ only declares (schemas, constants, pure functions): a module the renderer
        // takes nothing from is left out, so the page does not build the Commerce API's schemas
        // (every operation, the integration profile) that only main uses.
        moduleSideEffects: (id) => !id.startsWith(sharedDir),
      },
    },
  },
  test: {
    projects: [
      {
        extends: true,
        // The Vite root is renderer/ for the build; tests live under the repository root.
        test: {
          name: 'node',
          root: repoRoot,
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', 'test/e2e/**', '**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'renderer',
          root: repoRoot,
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
