import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { RENDERER_VERSION_META } from './electron/host/asset-version.ts';
import { packageVersion } from './electron/package-version.ts';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const sharedDir = fileURLToPath(new URL('./shared/', import.meta.url));

/**
 * The page's script as one classic script, not a module: Chromium keeps and reuses the compiled
 * code of a classic script from its third load on, but compiles a module script whole at every
 * load (its cache written each time, never read), so a start of the page paid a full parse of the
 * 540 KB bundle. Vite writes the entry as a module; the build is one IIFE (renderer/boot.ts, with
 * main.tsx behind its import evaluated right after the first requests leave), so the tag can
 * load it as a classic script.
 *
 * Async, at the end of the body (after #root, which it renders into): a deferred script waits for
 * the stylesheet as well as for its own file, and the stylesheet, read from the cache after the
 * script, came 3 to 20 ms later. The script's first work (the first requests, building the app)
 * needs no style, and the page is not painted before the stylesheet is in either way.
 */
function classicScript(): Plugin {
  return {
    name: 'kiosk-classic-script',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const moduleTag = /\s*<script type="module" crossorigin src="([^"]+)"><\/script>/;
        const src = moduleTag.exec(html)?.[1];
        if (src === undefined) throw new Error('index.html has no module script to load');
        if (!html.includes('</body>')) throw new Error('index.html has no body to load it in');
        return html
          .replace(moduleTag, '')
          .replace('</body>', `  <script async src="${src}"></script>\n  </body>`);
      },
    },
  };
}

/**
 * V8's explicit compile hint, first in the page's script: compile every function with the script.
 * Chromium writes a script's code cache once, right after its first run, and V8 compiles a
 * function only when it is first called: everything the app runs after that first run (the app's
 * modules, evaluated once the first requests left, and the first render) was left out of the
 * cache and compiled again on the page's thread at every start, about 420 functions and 15 ms of
 * the first screen. Compiled with the script, they are all in the cache, which Chromium reads on
 * a background thread. Written after minification (which drops comments), so the file's content
 * hash covers it.
 */
const COMPILE_ALL_HINT = '//# allFunctionsCalledOnLoad';

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
  plugins: [react(), classicScript(), versionStamp()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer/', import.meta.url)),
    emptyOutDir: true,
    // One file of code and one of style (see classicScript): a style the script would add itself
    // is an inline style, which the page's CSP refuses; nothing else is loaded to preload.
    cssCodeSplit: false,
    modulePreload: false,
    rolldownOptions: {
      output: { format: 'iife', codeSplitting: false, postBanner: COMPILE_ALL_HINT },
      // Vite's preload helper reads import.meta, which an IIFE has not; with nothing to preload
      // (modulePreload: false) the helper only returns the import.
      checks: { emptyImportMeta: false },
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
