/**
 * Leaves a block out of a reply, by the dotted path the contract's scope rules name:
 * `contact`, `customer.contact`, `data[].contact` (in every element of `data`),
 * `data[type=gift_card]` (the elements of `data` whose `type` is `gift_card`).
 * Copy-on-write: the stored records the reply was built from are never touched.
 */

type Segment =
  | { readonly name: string; readonly kind: 'member' }
  | { readonly name: string; readonly kind: 'each' }
  | { readonly name: string; readonly kind: 'where'; readonly key: string; readonly value: string };

const segmentPattern = /^([A-Za-z0-9_]+)(?:\[\]|\[([A-Za-z0-9_]+)=([^\]]+)\])?$/;
const parsed = new Map<string, readonly Segment[]>();

function parse(path: string): readonly Segment[] {
  const known = parsed.get(path);
  if (known) return known;
  const segments = path.split('.').map((text): Segment => {
    const match = segmentPattern.exec(text);
    if (!match?.[1]) throw new Error(`bad block path ${path}`);
    if (match[2] !== undefined && match[3] !== undefined)
      return { name: match[1], kind: 'where', key: match[2], value: match[3] };
    return { name: match[1], kind: text.endsWith('[]') ? 'each' : 'member' };
  });
  parsed.set(path, segments);
  return segments;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function without(value: unknown, segments: readonly Segment[]): unknown {
  const [segment, ...rest] = segments;
  if (!segment || !isRecord(value) || !(segment.name in value)) return value;
  const copy: Record<string, unknown> = { ...value };
  const member = value[segment.name];
  if (segment.kind === 'member') {
    if (rest.length === 0) delete copy[segment.name];
    else copy[segment.name] = without(member, rest);
    return copy;
  }
  if (!Array.isArray(member)) return value;
  if (segment.kind === 'each') {
    copy[segment.name] = member.map((element: unknown) => without(element, rest));
    return copy;
  }
  const matches = (element: unknown) => isRecord(element) && element[segment.key] === segment.value;
  copy[segment.name] =
    rest.length === 0
      ? member.filter((element: unknown) => !matches(element))
      : member.map((element: unknown) => (matches(element) ? without(element, rest) : element));
  return copy;
}

export function omitBlocks<T>(reply: T, blocks: Iterable<string>): T {
  let result: unknown = reply;
  for (const block of blocks) result = without(result, parse(block));
  return result as T;
}
