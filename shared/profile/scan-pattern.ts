/**
 * A profile's `scan.pattern` runs on the main process for every scanned code, in JavaScript's
 * backtracking engine: `^(?<id>(a+)+)$` on 28 characters blocked it for a second, doubling with
 * each one more. So a pattern is checked when the profile is loaded, and refused unless its
 * backtracking is bounded on any code the kiosk accepts:
 * - nothing that repeats without bound may contain a repetition or alternatives of its own
 *   (`(a+)+`, `(a|ab)*`, `(\d{2,3})+`: nested quantifiers, ambiguous repetition);
 * - no look-arounds or back-references (a barcode rule needs neither);
 * - the ways the engine may try to match a code of MAX_SCAN_CODE_LENGTH characters (each
 *   open-ended repetition counts as many as the code is long, each alternative as one, each start
 *   position of an unanchored pattern as one) stay under MAX_SCAN_MATCH_PATHS, which refuses
 *   `\d*\d*\d*x` and long runs of `(a|a)` while every rule a barcode needs passes
 *   (`^GC(?<id>\d{16})$`, `^(?:GC)?(?<id>[0-9A-Z]+)$`, `^(?<id>\d+)-\d+$`).
 * A refusal says where, never quotes the pattern back (it comes from a file).
 */

/**
 * The longest scanned or typed code the pattern is run on. Real gift-card barcodes are far
 * shorter: EAN-13 and UPC (13 and 12 digits), ISO/IEC 7812 card numbers (up to 19 digits), Code 128
 * and GS1-128 (at most 48 data characters), a PDF417 or QR code carrying a short URL with the
 * card's id; 128 leaves room for all of them. A longer one matches nothing.
 */
export const MAX_SCAN_CODE_LENGTH = 128;

/** The bound on the ways to try a match: milliseconds at worst on a 128-character code. */
export const MAX_SCAN_MATCH_PATHS = 100_000;

type Node =
  | { readonly kind: 'atom' }
  | { readonly kind: 'assertion'; readonly start: boolean }
  | { readonly kind: 'sequence'; readonly items: readonly Node[] }
  | { readonly kind: 'alternatives'; readonly branches: readonly Node[] }
  | {
      readonly kind: 'repeat';
      readonly body: Node;
      readonly min: number;
      readonly max: number;
      readonly at: number;
    };

class PatternRefused extends Error {}

/** Why the pattern is refused, or null when it may run on scanned codes. */
export function scanPatternProblem(pattern: string): string | null {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'not a valid regular expression (JavaScript syntax, with the u flag)';
  }
  let tree: Node;
  try {
    tree = new Parser(pattern).parse();
  } catch (error) {
    if (error instanceof PatternRefused) return error.message;
    throw error;
  }
  try {
    const paths = pathsOf(tree) * (anchoredAtStart(tree) ? 1 : MAX_SCAN_CODE_LENGTH + 1);
    if (paths > MAX_SCAN_MATCH_PATHS) {
      return `too many ways to try a match (more than ${String(MAX_SCAN_MATCH_PATHS).replace(/\B(?=(\d{3})+$)/g, ',')} on a ${MAX_SCAN_CODE_LENGTH}-character code): use fewer open-ended repetitions (+, *, {n,}), fewer alternatives, or anchor it with ^`;
    }
  } catch (error) {
    if (error instanceof PatternRefused) return error.message;
    throw error;
  }
  return null;
}

/** An upper bound on the paths a backtracking matcher explores from one start position. */
function pathsOf(node: Node): number {
  switch (node.kind) {
    case 'atom':
    case 'assertion':
      return 1;
    case 'sequence':
      return node.items.reduce((product, item) => product * pathsOf(item), 1);
    case 'alternatives':
      return node.branches.reduce((sum, branch) => sum + pathsOf(branch), 0);
    case 'repeat': {
      const inner = pathsOf(node.body);
      if (node.max <= 1) return (node.min === 0 ? 1 : 0) + inner;
      // A code longer than the cap is never run, so no count above it is tried.
      if (inner <= 1) return Math.max(1, Math.min(node.max, MAX_SCAN_CODE_LENGTH) - node.min + 1);
      if (node.max === Infinity) {
        throw new PatternRefused(
          `a repetition of something that itself repeats or has alternatives (character ${node.at + 1}): it can backtrack catastrophically; repeat a character class or a fixed sequence instead (such as [0-9A-Z]+)`,
        );
      }
      let total = 0;
      for (let count = node.min; count <= node.max && total <= MAX_SCAN_MATCH_PATHS; count++)
        total += inner ** count;
      return total;
    }
  }
}

/** Every alternative begins with `^`: the engine tries the first position only. */
function anchoredAtStart(node: Node): boolean {
  switch (node.kind) {
    case 'assertion':
      return node.start;
    case 'sequence': {
      const first = node.items[0];
      return first !== undefined && anchoredAtStart(first);
    }
    case 'alternatives':
      return node.branches.every(anchoredAtStart);
    default:
      return false;
  }
}

/** A reader of the syntax the `u` flag accepts (the pattern compiled already). */
class Parser {
  readonly #chars: readonly string[];
  #index = 0;

  constructor(pattern: string) {
    this.#chars = Array.from(pattern);
  }

  parse(): Node {
    const node = this.#alternatives();
    if (this.#index < this.#chars.length) this.#refuse('an unexpected )');
    return node;
  }

  #peek(offset = 0): string | undefined {
    return this.#chars[this.#index + offset];
  }

  #refuse(what: string, at = this.#index): never {
    throw new PatternRefused(`${what} (character ${at + 1}) is not supported in a scan pattern`);
  }

  #alternatives(): Node {
    const branches = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#index++;
      branches.push(this.#sequence());
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alternatives', branches };
  }

  #sequence(): Node {
    const items: Node[] = [];
    for (let char = this.#peek(); char !== undefined && char !== '|' && char !== ')';) {
      const at = this.#index;
      const term = this.#term();
      items.push(this.#quantified(term, at));
      char = this.#peek();
    }
    return { kind: 'sequence', items };
  }

  #quantified(body: Node, at: number): Node {
    let min: number;
    let max: number;
    const char = this.#peek();
    if (char === '*') [min, max] = [0, Infinity];
    else if (char === '+') [min, max] = [1, Infinity];
    else if (char === '?') [min, max] = [0, 1];
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(
        this.#chars.slice(this.#index, this.#index + 24).join(''),
      );
      if (match === null) return body;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.#index += match[0].length - 1;
    } else return body;
    this.#index++;
    if (this.#peek() === '?') this.#index++; // lazy: the same paths, another order
    return { kind: 'repeat', body, min, max, at };
  }

  #term(): Node {
    const at = this.#index;
    const char = this.#chars[this.#index++]!;
    switch (char) {
      case '^':
        return { kind: 'assertion', start: true };
      case '$':
        return { kind: 'assertion', start: false };
      case '[':
        this.#skipClass();
        return { kind: 'atom' };
      case '(':
        return this.#group(at);
      case '\\':
        return this.#escape(at);
      default:
        return { kind: 'atom' };
    }
  }

  #group(at: number): Node {
    if (this.#peek() === '?') {
      const next = this.#peek(1);
      if (next === '=' || next === '!' || (next === '<' && /[=!]/.test(this.#peek(2) ?? '')))
        this.#refuse('a look-around', at);
      if (next === '<') {
        // A named group: (?<id>...).
        while (this.#peek() !== undefined && this.#peek() !== '>') this.#index++;
        this.#index++;
      } else {
        // (?:...) and modifiers such as (?i:...).
        while (this.#peek() !== undefined && this.#peek() !== ':') this.#index++;
        this.#index++;
      }
    }
    const body = this.#alternatives();
    if (this.#peek() !== ')') this.#refuse('an unclosed group', at);
    this.#index++;
    return body;
  }

  #escape(at: number): Node {
    const char = this.#chars[this.#index++];
    switch (char) {
      case 'b':
      case 'B':
        return { kind: 'assertion', start: false };
      case 'k':
        return this.#refuse('a back-reference', at);
      case 'p':
      case 'P':
        this.#skipBraces();
        return { kind: 'atom' };
      case 'u':
        if (this.#peek() === '{') this.#skipBraces();
        else this.#index += 4;
        return { kind: 'atom' };
      case 'x':
        this.#index += 2;
        return { kind: 'atom' };
      case 'c':
        this.#index += 1;
        return { kind: 'atom' };
      default:
        if (char !== undefined && /[1-9]/.test(char)) return this.#refuse('a back-reference', at);
        return { kind: 'atom' };
    }
  }

  #skipBraces(): void {
    while (this.#peek() !== undefined && this.#peek() !== '}') this.#index++;
    this.#index++;
  }

  #skipClass(): void {
    for (let char = this.#peek(); char !== undefined; char = this.#peek()) {
      this.#index++;
      if (char === ']') return;
      if (char === '\\') {
        const escaped = this.#chars[this.#index++];
        if ((escaped === 'p' || escaped === 'P') && this.#peek() === '{') this.#skipBraces();
        else if (escaped === 'u' && this.#peek() === '{') this.#skipBraces();
      }
    }
  }
}
