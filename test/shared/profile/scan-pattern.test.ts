import { expect, it } from 'vitest';
import {
  MAX_SCAN_CODE_LENGTH,
  MAX_SCAN_MATCH_PATHS,
  scanPatternProblem,
} from '../../../shared/profile/index.ts';

/** The check of scan-pattern.ts, rule by rule (test/security/patterns.test.ts has the attack). */

it('allows what barcode rules use', () => {
  for (const pattern of [
    '^(?<id>\\d{13})$',
    '^(?:GC|GK)-?(?<id>[0-9A-F]{8}(?:-[0-9A-F]{4}){3}-[0-9A-F]{12})$',
    '^(?<id>[\\p{L}\\p{N}]+)$',
    '^(?i:gc)(?<id>\\d+)$',
    '^\\u{1F381}?(?<id>\\d+)$',
    '^[^\\]]+$',
    '(?<id>\\d+)',
    '^\\d+-\\d+$',
  ]) {
    expect(scanPatternProblem(pattern), pattern).toBeNull();
  }
});

it('refuses a repetition over a repetition or alternatives, whatever the spelling', () => {
  for (const pattern of [
    '(a+)+',
    '(a*)*',
    '(a?)+',
    '(?:a|b)+',
    '(?<id>(?:\\d{1,2})*)',
    '(a+){2,}',
    '((ab)+c)+',
    '(a+?)+?',
  ]) {
    expect(scanPatternProblem(pattern), pattern).toMatch(/a repetition of something that itself/);
  }
});

it('refuses when the ways to try a match pass the bound on the longest code', () => {
  // Anchored: each open-ended repetition counts as many as the code is long, plus one.
  const ways = MAX_SCAN_CODE_LENGTH + 1;
  expect(ways * ways).toBeLessThan(MAX_SCAN_MATCH_PATHS);
  expect(ways * ways * ways).toBeGreaterThan(MAX_SCAN_MATCH_PATHS);
  expect(scanPatternProblem('^\\d+\\d+$')).toBeNull();
  expect(scanPatternProblem('^\\d+\\d+\\d+$')).toMatch(/too many ways to try a match/);
  // Unanchored: each start position counts too.
  expect(scanPatternProblem('\\d+x')).toBeNull();
  expect(scanPatternProblem('\\d+\\d+x')).toMatch(/too many ways/);
  // Bounded repetitions of alternatives multiply.
  expect(scanPatternProblem('^(?:a|b){4}$')).toBeNull();
  expect(scanPatternProblem('^(?:a|b){20}$')).toMatch(/too many ways/);
});

it('refuses look-arounds, back-references and what does not compile', () => {
  expect(scanPatternProblem('^(?=a)a$')).toMatch(/a look-around \(character 2\)/);
  expect(scanPatternProblem('^(?<!a)b$')).toMatch(/a look-around/);
  expect(scanPatternProblem('^(a)\\1$')).toMatch(/a back-reference \(character 5\)/);
  expect(scanPatternProblem('^(?<x>a)\\k<x>$')).toMatch(/a back-reference/);
  expect(scanPatternProblem('^(a$')).toMatch(/not a valid regular expression/);
  expect(scanPatternProblem('\\p{Nope}')).toMatch(/not a valid regular expression/);
});
