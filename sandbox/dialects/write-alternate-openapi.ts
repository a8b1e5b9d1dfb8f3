import { writeFileSync } from 'node:fs';
import { alternateOpenApiText } from './alternate-openapi.ts';

/** `node sandbox/dialects/write-alternate-openapi.ts`: rewrites `alternate.openapi.json`. */
writeFileSync(new URL('./alternate.openapi.json', import.meta.url), alternateOpenApiText());
