import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anchorsOf,
  brokenLinks,
  documents,
  outsidePointers,
  relativeLinks,
  repositoryFiles,
  slugOf,
  textFiles,
} from './links.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const files = repositoryFiles(root);

describe("the repository's documents", () => {
  it('are the README, ARCHITECTURE.md, CONTRIBUTING.md and docs/, the README under 300 lines', () => {
    const docs = documents(files);
    for (const doc of ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md', 'docs/performance.md']) {
      expect(docs).toContain(doc);
    }
    expect(
      readFileSync(join(root, 'README.md'), 'utf8').trimEnd().split('\n').length,
    ).toBeLessThanOrEqual(300);
  });

  it('link only to files of the repository, and to headings that exist', () => {
    expect(brokenLinks(root, documents(files))).toEqual([]);
  });

  it('every README link resolves, and the README links to the documents by reader', () => {
    const targets = relativeLinks(readFileSync(join(root, 'README.md'), 'utf8')).map(
      (link) => link.target.split('#')[0],
    );
    for (const doc of ['ARCHITECTURE.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'docs/embedding.md']) {
      expect(targets).toContain(doc);
    }
    expect(brokenLinks(root, ['README.md'])).toEqual([]);
  });

  it('no file, Markdown or source, points to a document outside the repository', () => {
    expect(outsidePointers(root, textFiles(files))).toEqual([]);
  });
});

describe('the checks', () => {
  const fixture = mkdtempSync(join(tmpdir(), 'kiosk-doc-links-'));
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(fixture, path)), { recursive: true });
    writeFileSync(join(fixture, path), text);
  };
  // Spelled in parts, so that this file does not name them itself.
  const brief = ['DESIGN', 'md'].join('.');
  const up = '..' + '/';
  const where = ['shared', 'folder'].join('   ');

  write(
    'README.md',
    [
      '# Kiosk',
      '',
      '## What `npm start` does',
      '',
      '[ok](docs/guide.md#the-guide) [heading here](#what-npm-start-does) [folder](docs/)',
      '[gone](docs/missing.md) [bad anchor](docs/guide.md#no-such-heading)',
      `[outside](${up}sibling/notes.md) [built](dist/index.js) ![shot](docs/shot.png)`,
      '[site](https://example.com/x.md) `[code](not/a/link.md)`',
      '',
      '```md',
      '[fenced](not/a/link.md)',
      '```',
      '',
      `The brief is ${brief} in the project's ${where}.`,
    ].join('\n'),
  );
  write('docs/guide.md', '# The guide\n\n## Twice\n\n## Twice\n\n[back](../README.md#kiosk)\n');
  write(
    'electron/service.ts',
    `import { x } from '${up}shared/api/x.ts';\nconst spec = '${up}${up}spec/api.md';\n`,
  );

  it('report each link that does not resolve, and only those', () => {
    expect(brokenLinks(fixture, ['README.md', 'docs/guide.md'])).toEqual([
      'README.md:6: docs/missing.md: no such file',
      'README.md:6: docs/guide.md#no-such-heading: no heading gives #no-such-heading',
      `README.md:7: ${up}sibling/notes.md: points outside the repository`,
      'README.md:7: dist/index.js: points into dist/, which a clone does not have',
      'README.md:7: docs/shot.png: no such file',
    ]);
  });

  it('report each name of a brief and each path that climbs out of the repository', () => {
    expect(outsidePointers(fixture, ['README.md', 'docs/guide.md', 'electron/service.ts'])).toEqual(
      [
        `README.md:14: names "${brief}", which is not in the repository`,
        `README.md:14: names "${where}", which is not in the repository`,
        `README.md:7: ${up}sibling leaves the repository`,
        `electron/service.ts:2: ${up}${up}spec leaves the repository`,
      ],
    );
  });

  it("give headings GitHub's anchors", () => {
    expect(slugOf('Running the kiosk: what `npm start` does')).toBe(
      'running-the-kiosk-what-npm-start-does',
    );
    expect(slugOf("The outbox's rules")).toBe('the-outboxs-rules');
    expect(slugOf('Control surface (`--control` only)')).toBe('control-surface---control-only');
    expect([...anchorsOf('# A\n## Twice\n```\n# not a heading\n```\n## Twice\n')]).toEqual([
      'a',
      'twice',
      'twice-1',
    ]);
  });
});
