import { existsSync, lstatSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * What the repository's documents may point at: a file of the repository, and a heading that
 * exists in it. A clone has nothing beside it, so no file, Markdown or source, may name a path
 * outside the repository or the team's briefs that live there.
 */

/** Folders that are not the repository's own files: installed, built or written by tests. */
const NOT_OURS = new Set([
  '.git',
  '.tools',
  'node_modules',
  'dist',
  'out',
  '.tsbuild',
  'coverage',
  'test-results',
  'playwright-report',
]);

/** Files whose text can point somewhere: documents, source, scripts, configuration. */
const TEXT_FILE = /\.(md|ts|tsx|js|mjs|cjs|sh|ya?ml|json|html|css)$/;

/** Every file of the repository under `dir`, as paths relative to `root`, in a stable order. */
export function repositoryFiles(root: string, dir = root): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    if (NOT_OURS.has(entry.name)) continue;
    const path = join(dir, entry.name);
    // A worktree's node_modules or .tools may be a link into another checkout: never ours.
    if (lstatSync(path).isSymbolicLink()) continue;
    if (entry.isDirectory()) files.push(...repositoryFiles(root, path));
    else if (entry.isFile()) files.push(relative(root, path).split(sep).join('/'));
  }
  return files;
}

/** The documents whose links are checked: the README, the root documents and all of docs/. */
export function documents(files: readonly string[]): string[] {
  return files.filter((file) => /^[^/]+\.md$/.test(file) || /^docs\/.+\.md$/.test(file));
}

/** The files scanned for pointers outside the repository. */
export function textFiles(files: readonly string[]): string[] {
  return files.filter(
    (file) => (TEXT_FILE.test(file) || file.startsWith('.ci/')) && file !== 'package-lock.json',
  );
}

/** The Markdown with fenced code blocks blanked (line numbers kept). */
function withoutFences(markdown: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) {
        fence = marker[0]!;
        return '';
      }
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence) fence = undefined;
        return '';
      }
      return line;
    })
    .join('\n');
}

export interface Link {
  readonly line: number;
  readonly target: string;
}

/** The relative links of a Markdown document: inline links, images and reference definitions. */
export function relativeLinks(markdown: string): Link[] {
  const links: Link[] = [];
  withoutFences(markdown)
    .split('\n')
    .forEach((text, index) => {
      // Inline code holds examples, not links; its text is kept apart from the brackets.
      const line = text.replace(/`[^`]*`/g, 'code');
      const targets = [
        ...[...line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
        ...[...line.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((m) => m[1]!),
      ];
      for (const target of targets) {
        // A scheme (https:, mailto:...) or a protocol-relative URL leaves the repository on purpose.
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) continue;
        links.push({ line: index + 1, target });
      }
    });
  return links;
}

/** GitHub's anchor for a heading's text (github-slugger), after Markdown's own syntax is removed. */
export function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_~]/g, (mark) => (mark === '_' ? '_' : ''));
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a document's headings give, duplicates numbered as GitHub numbers them. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** `file:line: problem` for each link of the documents that does not resolve in the repository. */
export function brokenLinks(root: string, docs: readonly string[]): string[] {
  const problems: string[] = [];
  for (const doc of docs) {
    const source = join(root, doc);
    for (const { line, target } of relativeLinks(readFileSync(source, 'utf8'))) {
      const at = `${doc}:${line}: ${target}`;
      const [pathPart = '', anchor] = target.split('#', 2);
      let path: string;
      try {
        path = pathPart === '' ? source : resolve(dirname(source), decodeURIComponent(pathPart));
      } catch {
        problems.push(`${at}: not a valid link`);
        continue;
      }
      if (!isInside(root, path)) {
        problems.push(`${at}: points outside the repository`);
        continue;
      }
      const rel = relative(root, path).split(sep);
      if (rel.some((part) => NOT_OURS.has(part))) {
        problems.push(
          `${at}: points into ${rel.find((part) => NOT_OURS.has(part))}/, which a clone does not have`,
        );
        continue;
      }
      if (!existsSync(path)) {
        problems.push(`${at}: no such file`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (!statSync(path).isFile() || extname(path) !== '.md') {
        problems.push(`${at}: an anchor into something that is not a Markdown file`);
        continue;
      }
      if (!anchorsOf(readFileSync(path, 'utf8')).has(decodeURIComponent(anchor))) {
        problems.push(`${at}: no heading gives #${anchor}`);
      }
    }
  }
  return problems;
}

/** The team's briefs that live outside the repository, and how the README once pointed at them. */
const OUTSIDE_NAMES: readonly RegExp[] = [
  new RegExp(`\\b${['DESIGN', 'md'].join('\\.')}\\b`),
  new RegExp(['shared', 'folder'].join('\\s+'), 'i'),
];

/** A run of `../` followed by a name: a relative path that climbs. */
const CLIMBING_PATH = /(?<![\w./\\-])((?:\.\.\/)+)([\w@][\w@.-]*)/g;

/**
 * Relative paths that leave the repository from where they are written but are not pointers:
 * `eslint.config.js` shows the shapes imports take from inside `electron/`'s folders.
 */
const NOT_POINTERS: Readonly<Record<string, readonly string[]>> = {
  'eslint.config.js': ['../../electron', '../outbox', '../../outbox'],
};

/** `file:line: problem` for each mention of a path or a document outside the repository. */
export function outsidePointers(root: string, files: readonly string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const lineOf = (index: number) => text.slice(0, index).split('\n').length;
    for (const name of OUTSIDE_NAMES) {
      const match = new RegExp(name.source, `${name.flags}g`);
      for (const m of text.matchAll(match)) {
        problems.push(
          `${file}:${lineOf(m.index)}: names "${m[0]}", which is not in the repository`,
        );
      }
    }
    for (const m of text.matchAll(CLIMBING_PATH)) {
      const mention = m[1]! + m[2]!;
      if (NOT_POINTERS[file]?.includes(mention)) continue;
      if (!isInside(root, resolve(root, dirname(file), mention))) {
        problems.push(`${file}:${lineOf(m.index)}: ${mention} leaves the repository`);
      }
    }
  }
  return problems;
}
