import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { messageNames } from '../../../shared/ipc/contract.ts';

/**
 * Issue 34: an IPC message with no caller is either integrator surface, listed in
 * docs/embedding.md, or removed. The renderer is the kiosk's caller: its sources name every
 * message it sends.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [readFileSync(path, 'utf8')] : [];
  });
}

it('every IPC message is called by the renderer or listed as integrator surface, and only those', () => {
  const renderer = sourcesUnder(join(root, 'renderer')).join('\n');
  const embedding = readFileSync(join(root, 'docs', 'embedding.md'), 'utf8');
  const section = embedding.slice(embedding.indexOf('**Messages no screen calls.**'));
  const listed = [...section.matchAll(/^- `(\w+)`:/gm)].map((match) => match[1]);
  const uncalled = messageNames.filter((name) => !new RegExp(`\\b${name}\\b`).test(renderer));
  expect(listed.toSorted()).toEqual(uncalled.toSorted());
});
