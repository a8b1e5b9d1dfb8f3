/**
 * Every module the shipped entry points can load, followed through the built JavaScript (static
 * and dynamic imports alike): each package it names must be a dependency or a peer dependency,
 * never a devDependency, which a production install (`npm ci --omit=dev`, electron-builder's) does
 * not have.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT, requireBuild } from './packed.ts';

interface Manifest {
  readonly name: string;
  readonly main: string;
  readonly exports: Record<string, string | Record<string, string>>;
  readonly bin: Record<string, string>;
  readonly dependencies: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;

/** The JavaScript files an export target names (types are not loaded at run time). */
function targetsOf(target: string | Record<string, string>): string[] {
  const all = typeof target === 'string' ? [target] : Object.values(target);
  return all.filter((file) => /\.c?js$/.test(file));
}

const selfTargets = (subpath: string) => {
  const target = manifest.exports[subpath === '' ? '.' : `./${subpath}`];
  return target === undefined ? [] : targetsOf(target);
};

/** The package a bare specifier names: `@scope/name/x` → `@scope/name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** Walks the built files from the entry points; the packages they import, with an importer each. */
function packagesLoaded(entries: readonly string[]): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const queue = entries.map((entry) => resolve(ROOT, entry));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!existsSync(file)) throw new Error(`an import leads to a missing file: ${file}`);
    if (!/\.c?js$/.test(file)) continue;
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (specifier.startsWith('.')) queue.push(resolve(dirname(file), specifier));
      else if (isBuiltin(specifier)) continue;
      else if (packageOf(specifier) === manifest.name) {
        const subpath = specifier.slice(manifest.name.length + 1);
        const targets = selfTargets(subpath);
        if (targets.length === 0) throw new Error(`${file} imports ${specifier}, not exported`);
        queue.push(...targets.map((target) => resolve(ROOT, target)));
      } else packages.set(packageOf(specifier), file);
    }
  }
  return packages;
}

describe('what the shipped entry points load', () => {
  requireBuild();
  const entries = [
    ...Object.values(manifest.exports).flatMap(targetsOf),
    ...Object.values(manifest.bin),
    // The app electron-builder packs (its extraMetadata.main).
    'dist/electron/host/main.js',
  ];
  const loaded = packagesLoaded(entries);

  it('finds the packages the kiosk is built on', () => {
    expect([...loaded.keys()]).toEqual(
      expect.arrayContaining(['zod', 'axios', 'fastify', 'keytar', 'electron']),
    );
  });

  it('names only dependencies and peer dependencies, never a devDependency', () => {
    const installed = new Set([
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
    ]);
    const missing = [...loaded].filter(([name]) => !installed.has(name));
    expect(missing.map(([name, importer]) => `${name} (from ${importer})`)).toEqual([]);
  });
});
