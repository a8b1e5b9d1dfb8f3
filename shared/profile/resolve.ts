import { readPath, scalarLeaves, type Scalar } from './field-path.ts';
import type { FieldLocation, IntegrationProfile } from './integration-profile.ts';
import {
  type FieldSpec,
  type Identity,
  type RecordKind,
  type ValueType,
  recordKinds,
} from './record-kinds.ts';
import type { RecordViewOf } from './record-view.ts';

/**
 * Reads a record the service returned through the profile. Tolerant by design: a value the
 * profile cannot find, or finds with another type, is null (the screen says 'not provided by
 * the service'); nothing here throws on a reply's shape.
 */

/** What became of one value: found where, or why not (for `kioskctl contract check`). */
export type FieldResolution =
  | { readonly status: 'found'; readonly path: string; readonly value: unknown }
  | { readonly status: 'wrong-type'; readonly path: string; readonly typeFound: string }
  | { readonly status: 'missing'; readonly tried: readonly string[] }
  /** The profile says the service does not provide it. */
  | { readonly status: 'not-provided' };

/** How a value in a reply is typed, in the words of the report. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return 'date';
  if (
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}T/.test(value) &&
    !Number.isNaN(Date.parse(value))
  )
    return 'datetime';
  return typeof value;
}

export function matchesType(type: ValueType | 'list', value: unknown): boolean {
  switch (type) {
    case 'text':
      return typeof value === 'string';
    case 'money':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value);
    case 'datetime':
      return (
        typeof value === 'string' &&
        /^\d{4}-\d{2}-\d{2}T/.test(value) &&
        !Number.isNaN(Date.parse(value))
      );
    case 'list':
      return Array.isArray(value);
  }
}

/** The paths to try for a field: the profile's, or the field's own name when the profile is silent. */
export function locationOf(
  profile: IntegrationProfile,
  kind: RecordKind,
  field: string,
): readonly string[] | null {
  const records = profile.records[kind] as Record<string, FieldLocation | undefined> | undefined;
  const location = records?.[field];
  if (location === undefined) return [field];
  if (location === null) return null;
  return typeof location === 'string' ? [location] : location;
}

export function resolveField(
  raw: unknown,
  paths: readonly string[] | null,
  spec: FieldSpec,
): FieldResolution {
  if (paths === null) return { status: 'not-provided' };
  let wrongType: FieldResolution | undefined;
  for (const path of paths) {
    const read = readPath(raw, path);
    if (!read.found || read.value === null || read.value === undefined) continue;
    if (matchesType(spec.type, read.value)) return { status: 'found', path, value: read.value };
    wrongType ??= { status: 'wrong-type', path, typeFound: typeOf(read.value) };
  }
  return wrongType ?? { status: 'missing', tried: paths };
}

/** The record's public identifier: `uuid` or `id` as the spec names it, the other as a fallback. */
export function identifierOf(raw: unknown, identity: Identity): string | null {
  if (identity === 'none') return null;
  const order = identity === 'uuid' ? ['uuid', 'id'] : ['id', 'uuid'];
  for (const name of order) {
    const read = readPath(raw, name);
    if (read.found && typeof read.value === 'string' && read.value.length > 0) return read.value;
  }
  return null;
}

const MAX_OTHER_FIELDS = 40;
const MAX_TEXT = 200;

export interface OtherField {
  readonly name: string;
  readonly value: Scalar;
}

/** A record as the kiosk shows it: its identifier, each profile value or null, and the rest. */
export type RecordView = {
  readonly id: string | null;
  readonly otherFields: readonly OtherField[];
} & { readonly [field: string]: unknown };

export function resolveRecord(
  profile: IntegrationProfile,
  kind: RecordKind,
  raw: unknown,
): RecordView {
  const spec = recordKinds[kind];
  const used = new Set<string>(spec.identity === 'none' ? [] : ['id', 'uuid']);
  const view: Record<string, unknown> = { id: identifierOf(raw, spec.identity) };
  for (const [field, fieldSpec] of Object.entries(spec.fields) as [string, FieldSpec][]) {
    const resolution = resolveField(raw, locationOf(profile, kind, field), fieldSpec);
    if (resolution.status !== 'found') {
      view[field] = null;
      continue;
    }
    used.add(resolution.path);
    view[field] =
      fieldSpec.type === 'list'
        ? (resolution.value as unknown[]).map((entry) =>
            resolveRecord(profile, fieldSpec.of as RecordKind, entry),
          )
        : resolution.value;
  }
  view['otherFields'] = scalarLeaves(raw)
    .filter(([name]) => !used.has(name))
    .slice(0, MAX_OTHER_FIELDS)
    .map(([name, value]) => ({
      name,
      value: typeof value === 'string' ? value.slice(0, MAX_TEXT) : value,
    }));
  return view as RecordView;
}

/** `resolveRecord`, typed by its kind. */
export function viewOf<K extends RecordKind>(
  profile: IntegrationProfile,
  kind: K,
  raw: unknown,
): RecordViewOf<K> {
  return resolveRecord(profile, kind, raw) as RecordViewOf<K>;
}

/** Whether a status word is one of the profile's `words`: null when the status is not provided. */
export function statusIn(words: readonly string[], status: string | null): boolean | null {
  return status === null ? null : words.includes(status);
}
