import { describe, expect, it } from 'vitest';
import { ScanDetector, type ScanOutcome } from '../../../renderer/input/scan-detector.ts';

/** Feeds characters `gap` ms apart from `start`, then Enter `gap` ms after the last. */
function type(detector: ScanDetector, text: string, gap: number, start = 1_000): string | null {
  const outcome = burst(detector, [text], gap, 0, start);
  return outcome?.kind === 'code' ? outcome.code : null;
}

/**
 * A scanner burst as a loaded machine delivers it: `pieces` typed `gap` ms apart, a `pause`
 * between two pieces, Enter `gap` ms after the last character.
 */
function burst(
  detector: ScanDetector,
  pieces: readonly string[],
  gap: number,
  pause: number,
  start = 1_000,
): ScanOutcome | null {
  let at = start;
  for (const [index, piece] of pieces.entries()) {
    if (index > 0) at += pause - gap;
    for (const char of piece) {
      detector.character(char, at);
      at += gap;
    }
  }
  return detector.enter(at);
}

/** Every way to cut `code` in two, and in three, as load does. */
function cuts(code: string): string[][] {
  const all: string[][] = [];
  for (let i = 1; i < code.length; i++) {
    all.push([code.slice(0, i), code.slice(i)]);
    for (let j = i + 1; j < code.length; j++)
      all.push([code.slice(0, i), code.slice(i, j), code.slice(j)]);
  }
  return all;
}

describe('telling a scanner from a person', () => {
  it('a burst 5 ms apart ended by Enter is a scan', () => {
    expect(type(new ScanDetector(), '3760123456784', 5)).toBe('3760123456784');
  });

  it('typing 80 ms apart is a person, whatever its length', () => {
    expect(type(new ScanDetector(), '3760123456784', 80)).toBeNull();
  });

  it('a short burst is a key pressed twice, not a code', () => {
    expect(
      type(new ScanDetector({ maxGapMs: 40, minLength: 4, jitterMs: 600 }), '12', 5),
    ).toBeNull();
  });

  it('a pause before the burst starts a new one: what a person typed first is not part of it', () => {
    const detector = new ScanDetector();
    detector.character('x', 0);
    expect(type(detector, 'V-2026-000123', 5, 1_000)).toBe('V-2026-000123');
  });

  it('Enter long after the last character is a person confirming, not a scan', () => {
    const detector = new ScanDetector();
    for (const [i, char] of [...'12345678'].entries()) detector.character(char, i * 5);
    expect(detector.enter(35 + 1_000)).toBeNull();
  });

  it('the timing is configurable: a slow scanner at 60 ms', () => {
    expect(
      type(new ScanDetector({ maxGapMs: 80, minLength: 4, jitterMs: 600 }), '12345678', 60),
    ).toBe('12345678');
  });

  it('a person who rolls two keys now and then, then presses Enter, is still a person', () => {
    const detector = new ScanDetector();
    // "dupont": d-u 120 ms, u-p 30 (rolled), p-o 150, o-n 25 (rolled), n-t 140, Enter 200 later.
    const times = [0, 120, 150, 300, 325, 465];
    for (const [i, char] of [...'dupont'].entries()) detector.character(char, times[i]!);
    expect(detector.enter(665)).toBeNull();
  });
});

describe('a burst broken up by load', () => {
  it('an EAN cut anywhere by 300 ms pauses is read whole: its check digit proves it', () => {
    for (const pieces of cuts('3760123456784')) {
      expect(burst(new ScanDetector(), pieces, 5, 300)).toEqual({
        kind: 'code',
        code: '3760123456784',
      });
    }
  });

  it('a receipt number and a card id cut by pauses are read whole: their layout proves them', () => {
    for (const code of ['V-2026-000123', 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81']) {
      expect(burst(new ScanDetector(), [code.slice(0, 4), code.slice(4)], 5, 250)).toEqual({
        kind: 'code',
        code,
      });
    }
  });

  it('a product reference cut anywhere by 100 to 300 ms pauses is reported broken, never a partial code', () => {
    for (const pause of [100, 200, 300]) {
      for (const pieces of cuts('VH69853FR')) {
        expect(burst(new ScanDetector(), pieces, 5, pause)).toEqual({
          kind: 'broken',
          code: 'VH69853FR',
        });
      }
    }
  });

  it('an EAN whose check digit does not hold after pauses is reported broken', () => {
    // A character lost in the pause: 12 digits that are no valid UPC.
    expect(burst(new ScanDetector(), ['376012', '345678'], 5, 300)?.kind).toBe('broken');
  });

  it('Enter held back by load after a whole burst: an EAN is read, a reference reported', () => {
    const late = (code: string) => {
      const detector = new ScanDetector();
      for (const [i, char] of [...code].entries()) detector.character(char, i * 5);
      return detector.enter(code.length * 5 + 250);
    };
    expect(late('3760123456784')).toEqual({ kind: 'code', code: '3760123456784' });
    expect(late('VH69853FR')).toEqual({ kind: 'broken', code: 'VH69853FR' });
  });

  it('a pause longer than the jitter tolerance ends the burst: the head is not glued to a later code', () => {
    const detector = new ScanDetector();
    for (const char of 'VH6') detector.character(char, 0);
    expect(burst(detector, ['3760123456784'], 5, 0, 1_000)).toEqual({
      kind: 'code',
      code: '3760123456784',
    });
  });
});
