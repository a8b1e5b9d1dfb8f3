/**
 * Reading and writing by dotted paths (`totals.inclTax`, `lines.0.label`). Own properties only:
 * a reply is data, and `constructor` or `__proto__` in a profile must never reach the prototype.
 */

/** A path a person must still decide (written by `kioskctl contract import`). */
export const UNDECIDED = '?';

function isIndexable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function readPath(root: unknown, path: string): { found: boolean; value?: unknown } {
  if (path === UNDECIDED) return { found: false };
  let current: unknown = root;
  for (const segment of path.split('.')) {
    if (!isIndexable(current) || !Object.hasOwn(current, segment)) return { found: false };
    current = current[segment];
  }
  return { found: true, value: current };
}

/** Sets `value` at `path` in `target`, creating the objects on the way. */
export function writePath(target: Record<string, unknown>, path: string, value: unknown): void {
  const segments = path.split('.');
  const last = segments.pop()!;
  let current = target;
  for (const segment of segments) {
    const next = Object.hasOwn(current, segment) ? current[segment] : undefined;
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      current = next as Record<string, unknown>;
    } else {
      const created: Record<string, unknown> = {};
      Object.defineProperty(current, segment, {
        value: created,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      current = created;
    }
  }
  Object.defineProperty(current, last, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export type Scalar = string | number | boolean | null;

/** Every scalar leaf of a record with its dotted path, arrays of records left out. */
export function scalarLeaves(root: unknown, prefix = '', depth = 0): [string, Scalar][] {
  if (!isIndexable(root) || Array.isArray(root) || depth > 4) return [];
  const leaves: [string, Scalar][] = [];
  for (const [key, value] of Object.entries(root)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
      leaves.push([path, value as Scalar]);
    } else if (isIndexable(value) && !Array.isArray(value)) {
      leaves.push(...scalarLeaves(value, path, depth + 1));
    }
  }
  return leaves;
}
