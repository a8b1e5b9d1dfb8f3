import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// One name for a debit refused, failed or expired that staff have not resolved: it "needs
// attention" (`attention`, `needsAttention`, `attentionDebitStates`), as the metric label
// `attention`, the health code DEBITS_NEED_ATTENTION and docs/gift-card-outbox.md#words say.
// The names it replaced stay out of the code, so two words never again mean one thing.
const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const scanned = ['electron', 'shared', 'renderer'];
const sourceFile = /\.(?:ts|tsx|css|html)$/u;

/** Each retired name, and the word that replaced it. */
const retired: readonly { name: RegExp; instead: string }[] = [
  { name: /unresolved/iu, instead: 'needs attention (`needsAttention`, `attention`)' },
  { name: /needingAttention/iu, instead: '`attention` (a list or count), `needsAttention`' },
  { name: /uncollected/iu, instead: '`attentionDebitStates`, "needs attention"' },
  { name: /attention-required/u, instead: "the event 'held' (an open debit waiting for a person)" },
  {
    name: /after-?the-?fact/iu,
    instead: '`AttentionAlert`, the `attention.*` i18n keys, `resolve`',
  },
  { name: /PendingDebits/u, instead: '`OutboxDebits` (open debits and those that need attention)' },
];

/** Shipped migrations keep their words: they are never edited. */
function isShippedMigration(path: string): boolean {
  return path.split('/').includes('migrations');
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && sourceFile.test(entry.name))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)))
    .filter((path) => !isShippedMigration(path))
    .sort();
}

const files = scanned.flatMap(sourceFiles);

function occurrences(name: RegExp): string[] {
  return files.flatMap((path) =>
    readFileSync(join(repoRoot, path), 'utf8')
      .split('\n')
      .flatMap((line, index) => (name.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : [])),
  );
}

test('the scan reads the code of every layer, where the current words live', () => {
  const current = new Map([
    ['shared/ipc/gift-cards.ts', 'attentionDebitStates'],
    ['electron/outbox/debit.ts', 'export function needsAttention'],
    ['renderer/components/AttentionAlert.tsx', 'export function AttentionAlert'],
  ]);
  for (const [path, word] of current) {
    expect(files).toContain(path);
    expect(readFileSync(join(repoRoot, path), 'utf8')).toContain(word);
  }
});

test.each(retired)(
  'no retired name for "needs attention" comes back: $name',
  ({ name, instead }) => {
    expect(occurrences(name), `retired; say ${instead}`).toEqual([]);
  },
);
