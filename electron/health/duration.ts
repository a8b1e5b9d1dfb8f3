const units: readonly (readonly [string, number])[] = [
  ['d', 86_400_000],
  ['h', 3_600_000],
  ['min', 60_000],
  ['s', 1_000],
];

/** `3 d 2 h`, `12 min`, `40 s`, `250 ms`: the largest unit and the next, for a person reading a screen. */
export function formatDuration(ms: number): string {
  let rest = Math.max(0, Math.round(ms));
  const first = units.findIndex(([, size]) => rest >= size);
  if (first === -1) return `${rest} ms`;
  const parts: string[] = [];
  for (const [name, size] of units.slice(first, first + 2)) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0) parts.push(`${count} ${name}`);
  }
  return parts.join(' ');
}

/**
 * A duration as a technician types it: a whole number with `s`, `min`/`m`, `h` or `d` (no unit:
 * seconds). Undefined when it is not one.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,9})(s|m|min|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  const size = { s: 1_000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] ?? 's'];
  return Number(match[1]) * size!;
}
