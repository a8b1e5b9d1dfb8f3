/**
 * Writes shared/profile/integration-profile.schema.json from the zod profile schema
 * (`npm run profile-schema`): the JSON Schema editors use to complete and check a profile.
 * `--check` exits 1 when the committed file is stale, without writing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { IntegrationProfile } from '../shared/profile/integration-profile.ts';

export const profileSchemaPath = fileURLToPath(
  new URL('../shared/profile/integration-profile.schema.json', import.meta.url),
);

export function renderProfileSchema(): string {
  // `input`: what a person writes (defaults may be left out).
  const schema = z.toJSONSchema(IntegrationProfile, { io: 'input', target: 'draft-2020-12' });
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rendered = renderProfileSchema();
  if (process.argv.includes('--check')) {
    const committed = await readFile(profileSchemaPath, 'utf8').catch(() => '');
    if (committed !== rendered) {
      console.error(
        'shared/profile/integration-profile.schema.json is stale: run `npm run profile-schema`.',
      );
      process.exit(1);
    }
  } else {
    await writeFile(profileSchemaPath, rendered);
    console.error(`wrote ${profileSchemaPath}`);
  }
}
