import { Random } from '../../sandbox/data/random.ts';

/**
 * The test tree's one seeded generator is the sandbox's own (`Random`, mulberry32): the demo
 * data, the torture scenarios and every jitter a test injects draw from the same algorithm, so a
 * seed printed by a failing run means the same draws wherever it is replayed.
 */
export { Random };

/** Uniform in [0, 1), for code that takes its randomness as a function (backoff, jitter). */
export function seededRandom(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}
