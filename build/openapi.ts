/**
 * Writes shared/api/openapi.json from the zod contract (`npm run openapi`).
 * `--check` exits 1 when the committed file is stale, without writing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from './openapi-document.ts';

export const openApiPath = fileURLToPath(new URL('../shared/api/openapi.json', import.meta.url));

/** The committed file's text: two-space JSON in the generator's key order, and a final newline. */
export function renderOpenApiJson(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rendered = renderOpenApiJson();
  if (process.argv.includes('--check')) {
    const committed = await readFile(openApiPath, 'utf8').catch(() => '');
    if (committed !== rendered) {
      console.error('shared/api/openapi.json is stale: run `npm run openapi`.');
      process.exit(1);
    }
  } else {
    await writeFile(openApiPath, rendered);
    console.error(`wrote ${openApiPath}`);
  }
}
