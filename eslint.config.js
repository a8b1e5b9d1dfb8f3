import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import packageJson from './package.json' with { type: 'json' };

// The import boundaries of ARCHITECTURE.md ("imports point inward"). Each zone's rules are built by
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

/**
 * A relative import, from a file of electron/, of one of electron/'s folders: `./outbox/` from
 * electron/ itself, `../outbox/` (`../../outbox/` from a subfolder) from inside another folder.
 * From inside a folder only the `../` run counts, so a same-named subfolder (`./api/`) is not one.
 */
const intoElectronFolder = (folder, fromElectronRoot) =>
  `^${fromElectronRoot ? '\\./' : '(\\.\\./)+'}${folder}/`;

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The build and test tools: every devDependency but `electron` (the runtime the shell runs in,
 * which has its own rule) and the `@types/` packages (types, nothing to load). A scoped tool
 * refuses its whole scope, unless a dependency shares it: its companions come with it and go with
 * it (@redocly/openapi-core arrives with @redocly/cli, not with `npm ci --omit=dev`).
 * Each is `[what the message names, regex]`.
 */
const scopeOf = (name) => (name.startsWith('@') ? name.slice(0, name.indexOf('/')) : undefined);
const runtimeScopes = new Set(Object.keys(packageJson.dependencies).map(scopeOf));
const DEV_TOOLS = [
  ...new Map(
    Object.keys(packageJson.devDependencies)
      .filter((name) => name !== 'electron' && scopeOf(name) !== '@types')
      .map((name) => {
        const scope = scopeOf(name);
        return scope && !runtimeScopes.has(scope)
          ? [`${scope}/*`, `^${escapeRegex(scope)}/`]
          : [name, `^${escapeRegex(name)}(/|$)`];
      }),
  ),
];
const SHIPPED =
  'a build or test tool, a devDependency: what ships installs with `npm ci --omit=dev`; build scripts go in build/';

const ELECTRON_ONLY_IN_HOST =
  'only electron/host/ and electron/preload.ts may import the electron module (services take Electron through injected interfaces, so they run under plain Node)';

const THROUGH_INDEX =
  'what a folder exports is its index.ts; its other files are its own, free to change';

/**
 * @param {{
 *   zone?: string,
 *   dirs?: Record<string, string>,
 *   folders?: Record<string, string>,
 *   throughIndex?: string[],
 *   fromElectronRoot?: boolean,
 *   nodeBuiltins?: string,
 *   devTools?: boolean,
 *   electronModule?: string,
 * }} rules
 *   `dirs` (top-level folders), `folders` (electron/'s folders) and `nodeBuiltins` give the reason
 *   shown after "<zone> must not import ..."; `throughIndex` lists electron/'s folders the zone
 *   may enter by their index.ts only; `devTools` refuses the build and test tools (DEV_TOOLS) to
 *   code that ships; `electronModule` is the whole message, absent where the electron module is
 *   allowed.
 */
function boundaryRules({
  zone,
  dirs = {},
  folders = {},
  throughIndex = [],
  fromElectronRoot = false,
  nodeBuiltins,
  devTools = false,
  electronModule,
}) {
  const restricted = [];
  for (const [dir, why] of Object.entries(dirs)) {
    restricted.push({
      regex: intoTopLevel(dir),
      message: `${zone} must not import ${dir}/ (${why})`,
    });
  }
  for (const [folder, why] of Object.entries(folders)) {
    restricted.push({
      regex: intoElectronFolder(folder, fromElectronRoot),
      message: `${zone} must not import electron/${folder}/ (${why})`,
    });
  }
  for (const folder of throughIndex) {
    restricted.push({
      regex: `${intoElectronFolder(folder, fromElectronRoot)}(?!index\\.ts$)`,
      message: `${zone} must import electron/${folder}/ through its index.ts (${THROUGH_INDEX})`,
    });
  }
  if (nodeBuiltins) {
    const message = `${zone} must not import Node built-ins (${nodeBuiltins})`;
    restricted.push({ regex: NODE_PREFIXED, message }, { regex: NODE_BARE, message });
  }
  if (devTools) {
    for (const [name, regex] of DEV_TOOLS) {
      restricted.push({ regex, message: `${zone} must not import ${name} (${SHIPPED})` });
    }
  }
  if (electronModule) restricted.push({ regex: ELECTRON_MODULE, message: electronModule });

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

/*
 * electron/'s folders in three layers, imports pointing down. The foundations are what every
 * service stands on: the shared mechanisms (foundation/: the durable file writer, the event emitter), the API
 * client, the log, the database. foundation/ lies beneath the other foundations too: it imports
 * no folder of electron/ at all. The services are what the kiosk does
 * (ipc/ binds the IPC contract to them). The composition roots wire services into a program: the
 * kiosk app (kiosk/), its Electron shell (host/) and kioskctl (cli/); electron/*.ts files, such as
 * schema.ts, are composition too. A folder is entered through its index.ts; cli/ and host/ are
 * entry points that nothing imports (preload.ts belongs to the shell).
 */
const FOUNDATIONS = ['api', 'foundation', 'logging', 'storage'];
const SERVICES = [
  'catalog',
  'contract',
  'credentials',
  'health',
  'ipc',
  'metrics',
  'outbox',
  'printing',
  'profile',
];
const ROOTS = ['cli', 'exports', 'host', 'kiosk'];
const ENTERED_BY_INDEX = [...FOUNDATIONS, ...SERVICES, 'kiosk'];

const BENEATH_SERVICES =
  'api/, foundation/, logging/ and storage/ lie beneath every service: services import them, never the reverse';
const BENEATH_ALL =
  'foundation/ lies beneath every folder of electron/: it stands on Node alone, everything else may import it';
const WIRES_SERVICES =
  'kiosk/, cli/ and host/ wire the services together: they import services, never the reverse';

/** The zone of one folder of electron/: what it must not import, and what it enters by index.ts. */
function electronFolderZone(folder) {
  const refused =
    folder === 'foundation'
      ? Object.fromEntries(
          [...FOUNDATIONS, ...SERVICES, ...ROOTS]
            .filter((other) => other !== folder)
            .map((other) => [other, BENEATH_ALL]),
        )
      : FOUNDATIONS.includes(folder)
        ? Object.fromEntries([...SERVICES, ...ROOTS].map((other) => [other, BENEATH_SERVICES]))
        : SERVICES.includes(folder)
          ? Object.fromEntries(ROOTS.map((root) => [root, WIRES_SERVICES]))
          : {};
  return {
    files: [`electron/${folder}/**`],
    rules: boundaryRules({
      zone: `electron/${folder}/`,
      folders: refused,
      throughIndex: ENTERED_BY_INDEX.filter((other) => other !== folder && !(other in refused)),
      devTools: true,
      ...(folder === 'host' ? {} : { electronModule: ELECTRON_ONLY_IN_HOST }),
    }),
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

  // All of electron/ ships: no build or test tool, even in a folder not given its zone yet (each
  // zone below restates the refusal, since it replaces these options).
  {
    files: ['electron/**'],
    rules: boundaryRules({
      zone: 'electron/',
      devTools: true,
      electronModule: ELECTRON_ONLY_IN_HOST,
    }),
  },

  // Inside electron/: layers, and each folder entered through its index.ts.
  ...[...FOUNDATIONS, ...SERVICES, ...ROOTS].map(electronFolderZone),
  {
    files: ['electron/*.ts'],
    ignores: ['electron/preload.ts'],
    rules: boundaryRules({
      zone: 'electron/*.ts',
      throughIndex: ENTERED_BY_INDEX,
      fromElectronRoot: true,
      devTools: true,
      electronModule: ELECTRON_ONLY_IN_HOST,
    }),
  },
  {
    files: ['electron/preload.ts'],
    rules: boundaryRules({
      zone: 'electron/preload.ts',
      throughIndex: ENTERED_BY_INDEX,
      fromElectronRoot: true,
      devTools: true,
    }),
  },

  {
    files: ['shared/**'],
    rules: {
      ...boundaryRules({
        zone: 'shared/',
        dirs: { electron: PORTABLE, renderer: PORTABLE, sandbox: PORTABLE },
        nodeBuiltins: PORTABLE,
        devTools: true,
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

  // The sandbox ships with the kiosk (its default API): no build or test tool either.
  {
    files: ['sandbox/**'],
    rules: boundaryRules({
      zone: 'sandbox/',
      devTools: true,
      electronModule: ELECTRON_ONLY_IN_HOST,
    }),
  },

  // The project's own kiosk app is the package's first consumer: public entry points only.
  {
    files: ['electron/host/main.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!node:|electron$|commerce-kiosk(/|$))',
              message:
                'electron/host/main.ts imports only the package (commerce-kiosk, commerce-kiosk/sandbox...), electron and node: built-ins, as an integrator app does',
            },
          ],
        },
      ],
    },
  },

  // An integrator's app (test/package/consumer.test.ts installs the tarball into it): it imports
  // electron and the package, and never the repository's files.
  {
    files: ['test/consumer/**'],
    rules: {
      'no-restricted-syntax': 'off',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./',
              message: 'the consumer app reaches the project only through the installed package',
            },
          ],
        },
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
