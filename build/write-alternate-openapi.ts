import { writeFileSync } from 'node:fs';
import { alternateOpenApiText } from '../sandbox/dialects/alternate-openapi.ts';

/** `node build/write-alternate-openapi.ts`: rewrites `sandbox/dialects/alternate.openapi.json`. */
writeFileSync(
  new URL('../sandbox/dialects/alternate.openapi.json', import.meta.url),
  alternateOpenApiText(),
);
