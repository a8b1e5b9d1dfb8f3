import { type FieldSpec, matchesType, readPath, scalarLeaves } from '../../shared/profile/index.ts';

/**
 * For a value the profile did not find: the fields of the records that have the right type and
 * a name like it (one of the kiosk's synonyms for it, or close in spelling), best first.
 */
export function suggestionsFor(
  field: string,
  spec: FieldSpec,
  records: readonly unknown[],
): string[] {
  const candidates = new Set<string>();
  for (const record of records) {
    const paths =
      spec.type === 'list'
        ? Object.keys(isObject(record) ? record : {}).filter((name) =>
            Array.isArray(readPath(record, name).value),
          )
        : scalarLeaves(record)
            .filter(([, value]) => value !== null && matchesType(spec.type, value))
            .map(([path]) => path);
    for (const path of paths) candidates.add(path);
  }
  const names = [field, ...(spec.synonyms ?? [])].map(normalise);
  return [...candidates]
    .map((path) => ({ path, score: likeness(normalise(lastSegment(path)), names) }))
    .filter((candidate) => candidate.score > 0)
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, 3)
    .map((candidate) => candidate.path);
}

function likeness(name: string, wanted: readonly string[]): number {
  let best = 0;
  for (const target of wanted) {
    if (name === target) best = Math.max(best, 3);
    else if (name.includes(target) || target.includes(name)) best = Math.max(best, 2);
    else if (distance(name, target) <= Math.max(1, Math.floor(target.length / 4)))
      best = Math.max(best, 1);
  }
  return best;
}

const normalise = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const lastSegment = (path: string) => path.slice(path.lastIndexOf('.') + 1);
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Levenshtein distance (short names only). */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
