/**
 * What `npm pack` puts in the tarball: the built package and its documents, nothing else (no
 * TypeScript source, no tests, no CI files).
 */
import { describe, expect, it } from 'vitest';
import { ROOT, npm, requireBuild } from './packed.ts';

describe('the tarball', () => {
  it('holds dist/, the README, the CHANGELOG, the licence and package.json only', async () => {
    requireBuild();
    const [packed] = JSON.parse(
      await npm(ROOT, ['pack', '--dry-run', '--json', '--ignore-scripts']),
    ) as { files: { path: string }[] }[];
    const files = packed!.files.map((file) => file.path);

    expect(
      files.filter(
        (path) => !/^(dist\/|(README|CHANGELOG)\.md$|LICENSE$|package\.json$)/.test(path),
      ),
    ).toEqual([]);
    expect(files.filter((path) => /\.(ts|tsx)$/.test(path) && !path.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((path) => /(^|\/)test\/|\.test\.|\.spec\./.test(path))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'CHANGELOG.md',
        'LICENSE',
        'package.json',
        'dist/electron/exports/main.js',
        'dist/electron/exports/main.d.ts',
        'dist/electron/preload.cjs',
        'dist/renderer/index.html',
        'dist/sandbox/index.js',
        'dist/electron/cli/kioskctl.js',
      ]),
    );
  });
});
