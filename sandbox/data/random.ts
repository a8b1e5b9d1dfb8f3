/**
 * The sandbox's only source of randomness. A seeded PRNG (mulberry32) so that the same seed gives
 * byte-identical demo data and activity on every machine; Math.random would make tests and bug
 * reports irreproducible. Not cryptographic, and not meant to be.
 */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    // mulberry32: 32-bit state, full period 2^32, fast and good enough for demo data.
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  /** True with probability `probability`. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Random.pick: empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks by relative weight: `[[value, weight], ...]`. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, weight] of entries) total += weight;
    let roll = this.next() * total;
    for (const [value, weight] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error('Random.weighted: empty list');
    return last[0];
  }

  /** Fisher-Yates, in place; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      const held = items[i] as T;
      items[i] = items[j] as T;
      items[j] = held;
    }
    return items;
  }

  /** `count` distinct elements (all of them when `count` exceeds the length), in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle([...items]).slice(0, count);
  }

  /** Lower-case hexadecimal digits (a flat string: ids exist by the hundred thousand). */
  hex(length: number): string {
    const codes: number[] = [];
    let bits = 0;
    let word = 0;
    for (let i = 0; i < length; i++) {
      if (bits === 0) {
        word = Math.floor(this.next() * 4294967296);
        bits = 8;
      }
      const nibble = word & 0xf;
      word >>>= 4;
      bits -= 1;
      codes.push(nibble < 10 ? 48 + nibble : 87 + nibble);
    }
    return String.fromCharCode(...codes);
  }

  /** A UUID v4-shaped string: opaque identifiers look like the real service's. */
  uuid(): string {
    const h = this.hex(32);
    const variant = ((parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
    return [
      h.slice(0, 8),
      '-',
      h.slice(8, 12),
      '-4',
      h.slice(13, 16),
      '-',
      variant,
      h.slice(17, 20),
      '-',
      h.slice(20, 32),
    ].join('');
  }

  /**
   * An independent stream derived from this seed and a label: each part of the data draws from
   * its own stream, so growing the catalogue (`--products`) leaves customers and sales unchanged.
   */
  fork(label: string): Random {
    let hash = this.#state ^ 0x811c9dc5;
    for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
    return new Random(hash >>> 0);
  }
}

export function createRandom(seed: number): Random {
  return new Random(seed);
}
