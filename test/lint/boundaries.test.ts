import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, test } from 'vitest';

// The fixtures are linted with the project's own eslint.config.js, under the virtual path of the
// zone they stand for, so a rule is proven exactly as `npm run lint` would apply it.
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const BOUNDARY_RULES = new Set([
  'no-restricted-imports',
  'no-restricted-syntax',
  'no-restricted-globals',
]);

const APP_MAIN_ONLY_PACKAGE =
  'electron/host/main.ts imports only the package (commerce-kiosk, commerce-kiosk/sandbox...), electron and node: built-ins, as an integrator app does';
const PORTABLE = '(keep the contract portable)';
const ONLY_HOST =
  'only electron/host/ and electron/preload.ts may import the electron module (services take Electron through injected interfaces, so they run under plain Node)';
const BENEATH_SERVICES =
  '(api/, foundation/, logging/ and storage/ lie beneath every service: services import them, never the reverse)';
const BENEATH_ALL =
  '(foundation/ lies beneath every folder of electron/: it stands on Node alone, everything else may import it)';
const WIRES_SERVICES =
  '(kiosk/, cli/ and host/ wire the services together: they import services, never the reverse)';
const SHIPPED =
  '(a build or test tool, a devDependency: what ships installs with `npm ci --omit=dev`; build scripts go in build/)';
const throughIndex = (zone: string, folder: string) =>
  `${zone} must import electron/${folder}/ through its index.ts (what a folder exports is its index.ts; its other files are its own, free to change)`;

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: repoRoot });
});

async function lint(fixture: string, virtualPath: string): Promise<ESLint.LintResult> {
  const code = await readFile(join(fixtures, fixture), 'utf8');
  const [result] = await eslint.lintText(code, { filePath: join(repoRoot, virtualPath) });
  if (!result) throw new Error(`ESLint returned no result for ${fixture}`);
  return result;
}

const violations: {
  rule: string;
  fixture: string;
  as: string;
  /** One entry per refused import or global, in source order. */
  errors: string[];
}[] = [
  {
    rule: 'the kiosk app imports only the package, electron and Node built-ins',
    fixture: 'app-main-imports-internals.ts',
    as: 'electron/host/main.ts',
    errors: [APP_MAIN_ONLY_PACKAGE, APP_MAIN_ONLY_PACKAGE],
  },
  {
    rule: 'shared/ does not import electron/',
    fixture: 'shared-imports-electron-dir.ts',
    as: 'shared/api/__fixture__.ts',
    errors: [`shared/ must not import electron/ ${PORTABLE}`],
  },
  {
    rule: 'shared/ does not import renderer/ (re-export included)',
    fixture: 'shared-imports-renderer-dir.ts',
    as: 'shared/ipc/__fixture__.ts',
    errors: [`shared/ must not import renderer/ ${PORTABLE}`],
  },
  {
    rule: 'shared/ does not import sandbox/',
    fixture: 'shared-imports-sandbox-dir.ts',
    as: 'shared/__fixture__.ts',
    errors: [`shared/ must not import sandbox/ ${PORTABLE}`],
  },
  {
    rule: 'shared/ does not import Node built-ins, node: prefixed or bare',
    fixture: 'shared-imports-node-builtin.ts',
    as: 'shared/api/__fixture__.ts',
    errors: [
      `shared/ must not import Node built-ins ${PORTABLE}`,
      `shared/ must not import Node built-ins ${PORTABLE}`,
    ],
  },
  {
    rule: 'shared/ does not import the electron module, not even its types',
    fixture: 'shared-imports-electron-module.ts',
    as: 'shared/ipc/__fixture__.ts',
    errors: [`shared/ must not import the electron module ${PORTABLE}`],
  },
  {
    rule: 'shared/ does not use DOM globals',
    fixture: 'shared-uses-dom-globals.ts',
    as: 'shared/api/__fixture__.ts',
    errors: [
      `shared/ must not use DOM globals ${PORTABLE}`,
      `shared/ must not use DOM globals ${PORTABLE}`,
    ],
  },
  {
    rule: 'shared/ does not use Node globals',
    fixture: 'shared-uses-node-globals.ts',
    as: 'shared/api/__fixture__.ts',
    errors: [`shared/ must not use Node globals ${PORTABLE}`],
  },
  {
    rule: 'renderer/ does not import electron/',
    fixture: 'renderer-imports-electron-dir.tsx',
    as: 'renderer/screens/__fixture__.tsx',
    errors: [
      'renderer/ must not import electron/ (the renderer reaches the main process over IPC only)',
    ],
  },
  {
    rule: 'renderer/ does not import sandbox/',
    fixture: 'renderer-imports-sandbox-dir.ts',
    as: 'renderer/__fixture__.ts',
    errors: [
      'renderer/ must not import sandbox/ (the renderer reaches the API through the main process only)',
    ],
  },
  {
    rule: 'renderer/ does not import Node built-ins',
    fixture: 'renderer-imports-node-builtin.ts',
    as: 'renderer/stores/__fixture__.ts',
    errors: [
      'renderer/ must not import Node built-ins (the renderer is sandboxed, it has no Node)',
      'renderer/ must not import Node built-ins (the renderer is sandboxed, it has no Node)',
    ],
  },
  {
    rule: 'renderer/ does not import the electron module',
    fixture: 'renderer-imports-electron-module.ts',
    as: 'renderer/__fixture__.ts',
    errors: [
      'renderer/ must not import the electron module (it reaches the main process through the preload bridge only)',
    ],
  },
  ...['electron/outbox/__fixture__.ts', 'electron/printing/__fixture__.ts'].map((as) => ({
    rule: `a service (${as.split('/')[1]}/) does not import electron nor electron/main`,
    fixture: 'service-imports-electron-module.ts',
    as,
    errors: [ONLY_HOST, ONLY_HOST],
  })),
  {
    rule: 'a service does not import the electron module dynamically either',
    fixture: 'service-imports-electron-dynamically.ts',
    as: 'electron/credentials/__fixture__.ts',
    errors: [ONLY_HOST],
  },
  ...[
    'sandbox/__fixture__.ts',
    'test/__fixture__.ts',
    'build/__fixture__.ts',
    'electron/__fixture__.ts',
  ].map((as) => ({
    rule: `${as} does not import the electron module`,
    fixture: 'service-imports-electron-module.ts',
    as,
    errors: [ONLY_HOST, ONLY_HOST],
  })),
  {
    rule: 'electron/foundation/ imports no folder of electron/: no foundation, service nor root',
    fixture: 'foundation-folder-imports-electron.ts',
    as: 'electron/foundation/__fixture__.ts',
    errors: ['storage', 'logging', 'outbox', 'kiosk'].map(
      (folder) => `electron/foundation/ must not import electron/${folder}/ ${BENEATH_ALL}`,
    ),
  },
  ...['storage', 'logging', 'api'].map((folder) => ({
    rule: `electron/${folder}/ does not import a service (catalog/), not even through its index.ts`,
    fixture: 'foundation-imports-service.ts',
    as: `electron/${folder}/__fixture__.ts`,
    errors: [`electron/${folder}/ must not import electron/catalog/ ${BENEATH_SERVICES}`],
  })),
  {
    rule: 'electron/storage/ does not import a service from a subfolder either (a migration)',
    fixture: 'foundation-imports-service-from-subfolder.ts',
    as: 'electron/storage/migrations/__fixture__.ts',
    errors: [`electron/storage/ must not import electron/catalog/ ${BENEATH_SERVICES}`],
  },
  {
    rule: 'a service (outbox/) does not import a composition root (kiosk/)',
    fixture: 'service-imports-root.ts',
    as: 'electron/outbox/__fixture__.ts',
    errors: [`electron/outbox/ must not import electron/kiosk/ ${WIRES_SERVICES}`],
  },
  ...['catalog', 'kiosk'].map((folder) => ({
    rule: `electron/${folder}/ enters another folder through its index.ts only (import, re-export, import())`,
    fixture: 'electron-deep-import.ts',
    as: `electron/${folder}/__fixture__.ts`,
    errors: ['storage', 'outbox', 'printing'].map((other) =>
      throughIndex(`electron/${folder}/`, other),
    ),
  })),
  {
    rule: 'a file of electron/ itself enters a folder through its index.ts only',
    fixture: 'electron-root-deep-import.ts',
    as: 'electron/__fixture__.ts',
    errors: [throughIndex('electron/*.ts', 'outbox')],
  },
  ...[
    ['shared/api/__fixture__.ts', 'shared/'],
    ['electron/contract/__fixture__.ts', 'electron/contract/'],
    ['electron/storage/__fixture__.ts', 'electron/storage/'],
    ['electron/host/__fixture__.ts', 'electron/host/'],
    ['electron/__fixture__.ts', 'electron/*.ts'],
    ['electron/not-zoned-yet/__fixture__.ts', 'electron/'],
    ['electron/preload.ts', 'electron/preload.ts'],
    ['sandbox/dialects/__fixture__.ts', 'sandbox/'],
  ].map(([as, zone]) => ({
    rule: `${zone} does not import a build or test tool (import, import type, re-export, import())`,
    fixture: 'runtime-imports-dev-tool.ts',
    as: as!,
    errors: ['@asteasolutions/*', 'vite', '@testing-library/*', 'fast-check'].map(
      (tool) => `${zone} must not import ${tool} ${SHIPPED}`,
    ),
  })),
];

describe('each boundary refuses its violating fixture with its own message', () => {
  test.for(violations)('$rule', async ({ fixture, as, errors }) => {
    const result = await lint(fixture, as);

    const boundary = result.messages.filter((m) => m.ruleId && BOUNDARY_RULES.has(m.ruleId));
    expect(boundary.map((m) => ({ severity: m.severity, message: m.message }))).toEqual(
      errors.map((message) => ({ severity: 2, message: expect.stringContaining(message) })),
    );
    // The fixture breaks one rule and nothing else, so the test cannot pass for another reason.
    expect(result.messages.filter((m) => !boundary.includes(m))).toEqual([]);
  });
});

const allowed: { zone: string; fixture: string; as: string }[] = [
  {
    zone: 'the kiosk app (electron/host/main.ts)',
    fixture: 'app-main-allowed.ts',
    as: 'electron/host/main.ts',
  },
  {
    zone: 'the consumer app (test/consumer/)',
    fixture: 'app-main-allowed.ts',
    as: 'test/consumer/__fixture__.ts',
  },
  {
    zone: 'shared/ imports zod and shared/',
    fixture: 'shared-allowed.ts',
    as: 'shared/api/__fixture__.ts',
  },
  {
    zone: 'renderer/ imports react and shared/',
    fixture: 'renderer-allowed.tsx',
    as: 'renderer/screens/__fixture__.tsx',
  },
  {
    zone: 'electron/host/ imports the electron module, Node and shared/',
    fixture: 'host-allowed.ts',
    as: 'electron/host/__fixture__.ts',
  },
  {
    zone: 'electron/preload.ts imports the electron module',
    fixture: 'preload-allowed.ts',
    as: 'electron/preload.ts',
  },
  {
    zone: 'a service imports Node built-ins, shared/ and sandbox/',
    fixture: 'service-allowed.ts',
    as: 'electron/outbox/__fixture__.ts',
  },
  ...['electron/outbox/__fixture__.ts', 'electron/kiosk/__fixture__.ts'].map((as) => ({
    zone: `${as.split('/')[1]}/ imports other folders of electron/ through their index.ts, and its own files`,
    fixture: 'electron-allowed.ts',
    as,
  })),
  {
    zone: 'a foundation (api/) imports Node, and another foundation through its index.ts',
    fixture: 'foundation-allowed.ts',
    as: 'electron/api/__fixture__.ts',
  },
  {
    zone: 'electron/foundation/ imports Node built-ins and its own files',
    fixture: 'foundation-folder-allowed.ts',
    as: 'electron/foundation/__fixture__.ts',
  },
  {
    zone: "a service's migration imports storage/ through its index.ts, and its own folder",
    fixture: 'migration-allowed.ts',
    as: 'electron/catalog/migrations/__fixture__.ts',
  },
  {
    zone: 'a file of electron/ itself (schema.ts) imports folders through their index.ts',
    fixture: 'electron-root-allowed.ts',
    as: 'electron/__fixture__.ts',
  },
  ...['build/__fixture__.ts', 'test/shared/__fixture__.ts'].map((as) => ({
    zone: `${as.split('/')[0]}/ imports the build and test tools (devDependencies)`,
    fixture: 'build-allowed.ts',
    as,
  })),
  {
    zone: 'sandbox/ imports Node built-ins, fastify and shared/',
    fixture: 'sandbox-allowed.ts',
    as: 'sandbox/__fixture__.ts',
  },
];

describe('each zone keeps the imports it is allowed', () => {
  test.for(allowed)('$zone', async ({ fixture, as }) => {
    const result = await lint(fixture, as);
    expect(result.messages).toEqual([]);
  });
});

describe('what ships imports no build or test tool (devDependencies)', () => {
  // The tools named when the OpenAPI generator left shared/, and their companions by scope.
  const tools = [
    '@asteasolutions/zod-to-openapi',
    'vite',
    'vitest',
    'vitest/config',
    '@redocly/cli',
    '@redocly/openapi-core',
    '@playwright/test',
    'fast-check',
    'jsdom',
    '@testing-library/react',
    '@testing-library/user-event',
    '@testing-library/dom',
  ];
  const zones = [
    'shared/api/__fixture__.ts',
    'electron/contract/__fixture__.ts',
    'electron/host/__fixture__.ts',
    'electron/__fixture__.ts',
    'electron/preload.ts',
    'sandbox/__fixture__.ts',
  ];
  test.for(zones.flatMap((as) => tools.map((tool) => ({ as, tool }))))(
    '$as does not import $tool',
    async ({ as, tool }) => {
      const code = `import tool from '${tool}';\nexport default tool;\n`;
      const [result] = await eslint.lintText(code, { filePath: join(repoRoot, as) });
      expect(result?.messages.map((m) => [m.ruleId, m.message])).toEqual([
        ['no-restricted-imports', expect.stringContaining(SHIPPED)],
      ]);
    },
  );

  test('runtime dependencies and electron stay allowed', async () => {
    const [result] = await eslint.lintText(
      "import { z } from 'zod';\nimport { dereference } from '@readme/openapi-parser';\nimport { parse } from 'yaml';\nimport { app } from 'electron';\nexport const all = [z, dereference, parse, app];\n",
      { filePath: join(repoRoot, 'electron/host/__fixture__.ts') },
    );
    expect(result?.messages).toEqual([]);
  });
});

test('the fixtures stay out of `eslint .`, their virtual paths do not', async () => {
  expect(await eslint.isPathIgnored(join(fixtures, 'shared-imports-electron-dir.ts'))).toBe(true);
  expect(await eslint.isPathIgnored(join(repoRoot, 'shared/api/__fixture__.ts'))).toBe(false);
});

test('every folder of electron/ has a zone of its own (a new folder needs its layer)', async () => {
  const entries = await readdir(join(repoRoot, 'electron'), { withFileTypes: true });
  const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  const unzoned: string[] = [];
  for (const folder of folders) {
    const config = (await eslint.calculateConfigForFile(
      join(repoRoot, 'electron', folder, '__fixture__.ts'),
    )) as { rules: Record<string, [unknown, { patterns: { message: string }[] }]> };
    const [, { patterns }] = config.rules['no-restricted-imports']!;
    if (!patterns.some(({ message }) => message.startsWith(`electron/${folder}/ `))) {
      unzoned.push(folder);
    }
  }
  expect(folders.length).toBeGreaterThan(0);
  expect(unzoned).toEqual([]);
});
