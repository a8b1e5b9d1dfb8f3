import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The import boundaries of DESIGN.md ("imports point inward"). Each zone's rules are built by
// boundaryRules(): flat config replaces a rule's options wholesale when a later entry names the
// same rule, so every zone states its complete list instead of adding to an earlier one.

const ELECTRON_MODULE = '^electron(/.*)?$';
const NODE_PREFIXED = '^node:';
const NODE_BARE = `^(${builtinModules.filter((name) => !name.startsWith('node:')).join('|')})$`;

/**
 * A relative import that climbs to the repository root and enters a top-level folder.
 * Every zone is a top-level folder, so `../../electron/api/client.ts` is the only shape such an
 * import takes; matching the leading `../` run keeps a same-named subfolder from being refused.
 */
const intoTopLevel = (dir) => `^(\\./)?(\\.\\./)+${dir}(/|$)`;

const ELECTRON_ONLY_IN_HOST =
  'only electron/host/ and electron/preload.ts may import the electron module (services take Electron through injected interfaces, so they run under plain Node)';

/**
 * @param {{ zone?: string, dirs?: Record<string, string>, nodeBuiltins?: string, electronModule: string }} rules
 *   `dirs` and `nodeBuiltins` give the reason shown after "<zone> must not import ...";
 *   `electronModule` is the whole message.
 */
function boundaryRules({ zone, dirs = {}, nodeBuiltins, electronModule }) {
  const restricted = [];
  for (const [dir, why] of Object.entries(dirs)) {
    restricted.push({
      regex: intoTopLevel(dir),
      message: `${zone} must not import ${dir}/ (${why})`,
    });
  }
  if (nodeBuiltins) {
    const message = `${zone} must not import Node built-ins (${nodeBuiltins})`;
    restricted.push({ regex: NODE_PREFIXED, message }, { regex: NODE_BARE, message });
  }
  restricted.push({ regex: ELECTRON_MODULE, message: electronModule });

  // no-restricted-imports sees only static imports; import() of the same module is the same
  // dependency. (require() is refused everywhere by @typescript-eslint/no-require-imports.)
  const dynamic = restricted.map(({ regex, message }) => ({
    // esquery ends a regex literal at the first '/', so it is spelled \x2F inside the selector.
    selector: `ImportExpression[source.value=/${regex.replaceAll('/', '\\x2F')}/u]`,
    message,
  }));

  return {
    'no-restricted-imports': [
      'error',
      { patterns: restricted.map((entry) => ({ ...entry, caseSensitive: true })) },
    ],
    'no-restricted-syntax': ['error', ...dynamic],
  };
}

const PORTABLE = 'keep the contract portable';

const DOM_GLOBALS = [
  'window',
  'self',
  'document',
  'navigator',
  'location',
  'history',
  'localStorage',
  'sessionStorage',
  'indexedDB',
  'customElements',
  'HTMLElement',
  'Element',
  'Node',
  'DOMParser',
  'XMLHttpRequest',
  'requestAnimationFrame',
  'getComputedStyle',
  'matchMedia',
  'alert',
];
const NODE_GLOBALS = [
  'process',
  'Buffer',
  'global',
  '__dirname',
  '__filename',
  'require',
  'module',
];

export default defineConfig([
  globalIgnores([
    'node_modules/',
    '.tools/',
    'dist/',
    'out/',
    '.tsbuild/',
    'coverage/',
    'test-results/',
    'playwright-report/',
    // Deliberate violations, linted by test/lint/boundaries.test.ts under virtual paths.
    'test/lint/fixtures/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  {
    files: ['**/*.{js,mjs,cjs,ts,mts,cts,tsx}'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['renderer/**', 'test/renderer/**'],
    languageOptions: { globals: globals.browser },
  },

  // Everywhere: the electron module belongs to the Electron shell alone.
  {
    files: ['**/*.{js,mjs,cjs,ts,mts,cts,tsx}'],
    rules: boundaryRules({ electronModule: ELECTRON_ONLY_IN_HOST }),
  },
  {
    files: ['electron/host/**', 'electron/preload.ts'],
    rules: { 'no-restricted-imports': 'off', 'no-restricted-syntax': 'off' },
  },

  {
    files: ['shared/**'],
    rules: {
      ...boundaryRules({
        zone: 'shared/',
        dirs: { electron: PORTABLE, renderer: PORTABLE, sandbox: PORTABLE },
        nodeBuiltins: PORTABLE,
        electronModule: `shared/ must not import the electron module (${PORTABLE})`,
      }),
      'no-restricted-globals': [
        'error',
        ...DOM_GLOBALS.map((name) => ({
          name,
          message: `shared/ must not use DOM globals (${PORTABLE})`,
        })),
        ...NODE_GLOBALS.map((name) => ({
          name,
          message: `shared/ must not use Node globals (${PORTABLE})`,
        })),
      ],
    },
  },

  {
    files: ['renderer/**'],
    rules: boundaryRules({
      zone: 'renderer/',
      dirs: {
        electron: 'the renderer reaches the main process over IPC only',
        sandbox: 'the renderer reaches the API through the main process only',
      },
      nodeBuiltins: 'the renderer is sandboxed, it has no Node',
      electronModule:
        'renderer/ must not import the electron module (it reaches the main process through the preload bridge only)',
    }),
  },
]);
