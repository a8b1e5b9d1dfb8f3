import { describe, expect, test } from 'vitest';
import { Random, createRandom } from '../../../sandbox/data/random.ts';

const draws = (random: Random, count: number) => Array.from({ length: count }, () => random.next());

describe('Random', () => {
  test('the same seed gives the same sequence, another seed another one', () => {
    expect(draws(new Random(42), 50)).toEqual(draws(createRandom(42), 50));
    expect(draws(new Random(42), 50)).not.toEqual(draws(new Random(43), 50));
  });

  test('next stays in [0, 1) and int in its inclusive bounds, reaching both ends', () => {
    const random = new Random(7);
    const seen = new Set<number>();
    for (let i = 0; i < 5000; i++) {
      const value = random.next();
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThan(1);
      const n = random.int(-2, 3);
      expect(Number.isInteger(n)).toBe(true);
      seen.add(n);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([-2, -1, 0, 1, 2, 3]);
  });

  test('chance follows its probability roughly, and 0 and 1 are absolute', () => {
    const random = new Random(3);
    const hits = Array.from({ length: 10_000 }, () => random.chance(0.3)).filter(Boolean).length;
    expect(hits).toBeGreaterThan(2700);
    expect(hits).toBeLessThan(3300);
    expect(Array.from({ length: 100 }, () => random.chance(0)).some(Boolean)).toBe(false);
    expect(Array.from({ length: 100 }, () => random.chance(1)).every(Boolean)).toBe(true);
  });

  test('shuffle is an in-place permutation, sample picks distinct elements', () => {
    const random = new Random(11);
    const items = Array.from({ length: 20 }, (_, i) => i);
    const shuffled = random.shuffle([...items]);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    const sample = random.sample(items, 5);
    expect(new Set(sample).size).toBe(5);
    expect(random.sample(items, 50)).toHaveLength(20);
  });

  test('pick and weighted refuse empty lists and never return a zero-weight value', () => {
    const random = new Random(5);
    expect(() => random.pick([])).toThrow();
    expect(() => random.weighted([])).toThrow();
    for (let i = 0; i < 500; i++) {
      expect(
        random.weighted([
          ['a', 1],
          ['never', 0],
          ['b', 2],
        ] as const),
      ).not.toBe('never');
    }
  });

  test('hex and uuid have the documented shapes', () => {
    const random = new Random(9);
    expect(random.hex(16)).toMatch(/^[0-9a-f]{16}$/);
    expect(random.hex(5)).toMatch(/^[0-9a-f]{5}$/);
    for (let i = 0; i < 100; i++) {
      expect(random.uuid()).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
  });

  test('fork gives independent, reproducible streams per label', () => {
    const a = draws(new Random(1).fork('catalog'), 10);
    expect(draws(new Random(1).fork('catalog'), 10)).toEqual(a);
    expect(draws(new Random(1).fork('customers'), 10)).not.toEqual(a);
    expect(draws(new Random(2).fork('catalog'), 10)).not.toEqual(a);
  });
});
