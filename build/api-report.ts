/**
 * The public surface of each entry point, written down by Microsoft's API Extractor from the
 * built `.d.ts` files into `docs/api/<entry>.api.md`, so a change to what integrators import is a
 * reviewed diff. `npm run api` rewrites the reports after a deliberate change; `npm run api:check`
 * (part of `npm test`) fails when the surface differs from the committed reports.
 * Needs `npm run build` first.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
} from '@microsoft/api-extractor';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const reportFolder = join(root, 'docs', 'api');

/** Each entry of the exports map with its declarations, and the report it gets. */
const ENTRIES = [
  { report: 'commerce-kiosk', types: 'dist/electron/exports/main.d.ts' },
  { report: 'commerce-kiosk-preload', types: 'dist/electron/exports/preload.d.ts' },
  { report: 'commerce-kiosk-renderer', types: 'dist/electron/exports/renderer.d.ts' },
  { report: 'commerce-kiosk-sandbox', types: 'dist/sandbox/index.d.ts' },
] as const;

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
const temp = mkdtempSync(join(tmpdir(), 'kiosk-api-report-'));
const changed: string[] = [];
let failed = false;

try {
  for (const entry of ENTRIES) {
    const config = ExtractorConfig.prepare({
      configObjectFullPath: undefined,
      packageJsonFullPath: join(root, 'package.json'),
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: join(root, entry.types),
        bundledPackages: [],
        compiler: {
          overrideTsconfig: {
            compilerOptions: {
              target: 'ES2024',
              lib: ['ES2024'],
              module: 'NodeNext',
              moduleResolution: 'NodeNext',
              strict: true,
              types: ['node'],
              skipLibCheck: true,
            },
            files: [join(root, entry.types)],
          },
        },
        apiReport: {
          enabled: true,
          reportFileName: `${entry.report}.api.md`,
          reportFolder,
          reportTempFolder: temp,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // The project's doc comments are prose, not TSDoc; release tags are not used.
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          extractorMessageReporting: {
            default: { logLevel: ExtractorLogLevel.Warning, addToApiReportFile: true },
            'ae-missing-release-tag': { logLevel: ExtractorLogLevel.None },
            'ae-undocumented': { logLevel: ExtractorLogLevel.None },
          },
          compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
        },
      },
    });
    const result = Extractor.invoke(config, {
      localBuild: !values.check,
      messageCallback: (message: ExtractorMessage) => {
        // Findings go into the report file itself (reviewed with it), not onto the console.
        if (message.category === 'Extractor') message.handled = true;
      },
    });
    if (result.apiReportChanged) changed.push(`docs/api/${entry.report}.api.md`);
    if (result.errorCount > 0) failed = true;
  }
} finally {
  rmSync(temp, { recursive: true, force: true });
}

if (failed) {
  process.stderr.write('api: API Extractor reported errors (above)\n');
  process.exit(1);
}
if (values.check && changed.length > 0) {
  process.stderr.write(
    `api: the public surface changed: ${changed.join(', ')}\n` +
      'api: if the change is deliberate, run `npm run api`, review and commit the reports, and note it in CHANGELOG.md\n',
  );
  process.exit(1);
}
process.stdout.write(
  values.check
    ? `api: the public surface matches docs/api/ (${ENTRIES.length} entry points)\n`
    : `api: ${changed.length === 0 ? 'no report changed' : `rewrote ${changed.join(', ')}`}\n`,
);
