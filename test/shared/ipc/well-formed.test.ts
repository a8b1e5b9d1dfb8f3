import { describe, expect, it } from 'vitest';
import { ipcMessages, type MessageName } from '../../../shared/ipc/contract.ts';
import { validRequests } from './samples.ts';

/**
 * A lone UTF-16 surrogate is a valid JS string and valid JSON, but no UTF-8 can hold it: SQLite
 * stores U+FFFD instead (another id), a URL encoder throws (an internal error), a search drops it
 * (everything matches). So no text of any request reaches main unless it is well-formed: every
 * string of every message's sample is tried with its last character made a lone surrogate.
 */

type Path = readonly (string | number)[];

function* stringPaths(value: unknown, path: Path = []): Generator<Path> {
  if (typeof value === 'string') yield path;
  else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) yield* stringPaths(inner, [...path, key]);
  }
}

function replaced(value: unknown, path: Path, next: (text: string) => string): unknown {
  if (path.length === 0) return next(value as string);
  const [head, ...rest] = path;
  const copy = (
    Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }
  ) as Record<string | number, unknown>;
  copy[head!] = replaced(copy[head!], rest, next);
  return copy;
}

const broken = (text: string) => `${text.slice(0, -1)}\ud800`;

describe('every text of every IPC request is well-formed Unicode', () => {
  const cases = (Object.keys(validRequests) as MessageName[]).flatMap((name) =>
    [...stringPaths(validRequests[name])].map((path) => [name, path.join('.'), path] as const),
  );

  it('the samples have texts to try', () => {
    expect(cases.length).toBeGreaterThan(20);
  });

  it('each sample is accepted as it is', () => {
    for (const name of Object.keys(validRequests) as MessageName[]) {
      expect(ipcMessages[name].request.safeParse(validRequests[name]).success, name).toBe(true);
    }
  });

  it('a lone surrogate in any of them is refused', () => {
    const accepted = cases
      .filter(([name, , path]) => {
        const request = replaced(validRequests[name], path, broken);
        return ipcMessages[name].request.safeParse(request).success;
      })
      .map(([name, field]) => `${name} ${field}`);
    expect(accepted).toEqual([]);
  });
});
