import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { profileSchemaPath, renderProfileSchema } from '../../../build/profile-schema.ts';
import { recordKindNames } from '../../../shared/profile/index.ts';

/** The JSON Schema editors use is generated from the zod schema the kiosk validates with. */
test('the committed integration-profile.schema.json is the one the zod schema gives', () => {
  expect(readFileSync(profileSchemaPath, 'utf8')).toBe(renderProfileSchema());
});

test('it documents every record kind and refuses members it does not know', () => {
  const schema = JSON.parse(readFileSync(profileSchemaPath, 'utf8')) as {
    $defs: {
      IntegrationProfile: {
        additionalProperties: boolean;
        properties: { records: { properties: Record<string, { description?: string }> } };
      };
    };
  };
  const profile = schema.$defs.IntegrationProfile;
  expect(profile.additionalProperties).toBe(false);
  expect(Object.keys(profile.properties.records.properties).sort()).toEqual(
    [...recordKindNames].sort(),
  );
  for (const kind of recordKindNames)
    expect(profile.properties.records.properties[kind]?.description, kind).toMatch(kind);
});
