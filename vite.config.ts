import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const repoRoot = fileURLToPath(new URL('.', import.meta.url));
const sharedDir = fileURLToPath(new URL('./shared/', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('./renderer/', import.meta.url)),
  // Relative asset URLs: the kiosk loads the build from its own app:// protocol, not from a server root.
  base: './',
  plugins: [react()],
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
