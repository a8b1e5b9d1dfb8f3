/**
 * Writes shared/api/openapi.yaml from the zod contract (`npm run openapi`).
 * `--check` exits 1 when the committed file is stale, without writing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { buildOpenApiDocument } from '../shared/api/openapi.ts';

export const openApiPath = fileURLToPath(new URL('../shared/api/openapi.yaml', import.meta.url));

export function renderOpenApiYaml(): string {
  const header = '# Generated from shared/api/*.ts by `npm run openapi`. Do not edit by hand.\n';
  return header + stringify(buildOpenApiDocument(), { lineWidth: 0, aliasDuplicateObjects: false });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rendered = renderOpenApiYaml();
  if (process.argv.includes('--check')) {
    const committed = await readFile(openApiPath, 'utf8').catch(() => '');
    if (committed !== rendered) {
      console.error('shared/api/openapi.yaml is stale: run `npm run openapi`.');
      process.exit(1);
    }
  } else {
    await writeFile(openApiPath, rendered);
    console.error(`wrote ${openApiPath}`);
  }
}
