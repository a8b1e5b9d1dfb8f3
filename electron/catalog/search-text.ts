/**
 * Text as the search index sees it. FTS5's `unicode61 remove_diacritics 2` already folds case
 * and accents; this also folds what it leaves alone in French text (the ligatures œ and æ, so
 * "coeur" finds "cœur") and is applied to the indexed text and to the query alike.
 */
const ligatures: Readonly<Record<string, string>> = {
  œ: 'oe',
  Œ: 'OE',
  æ: 'ae',
  Æ: 'AE',
  ß: 'ss',
};

/** Outside printable ASCII: only such text can hold something to fold (NFKD keeps ASCII). */
const BEYOND_PRINTABLE_ASCII = /[^\x20-\x7e]/;

export function normalizeSearchText(text: string | null): string {
  if (text === null || text === '') return '';
  if (!BEYOND_PRINTABLE_ASCII.test(text)) return text;
  return text
    .replace(/[œŒæÆß]/g, (letter) => ligatures[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** At most this many words of a query are used: a pasted paragraph must not cost a full scan. */
const MAX_QUERY_TOKENS = 12;

/** The columns staff's words are looked for in (not `filters`, whose tokens are codes). */
const TEXT_COLUMNS = '{name reference ean description}';

/**
 * The FTS5 MATCH expression for what a person typed: every word must match, each as a prefix
 * (as-you-type: "télév" already finds "Téléviseur"), in the text columns only. Words are quoted,
 * so FTS5 syntax in the input (`AND`, `*`, `"`, `-`, column filters) is only ever text. Null
 * when nothing searchable was typed.
 */
export function ftsQueryOf(text: string, columns: string = TEXT_COLUMNS): string | null {
  const tokens = normalizeSearchText(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter((token) => token.length > 0)
    .slice(0, MAX_QUERY_TOKENS);
  if (tokens.length === 0) return null;
  return `${columns} : (${tokens.map((token) => `"${token.replaceAll('"', '""')}"*`).join(' ')})`;
}

/** The columns that name a product (a match there outranks one in the description alone). */
export const NAMING_COLUMNS = '{name reference ean}';

/** The facts a product can be filtered on, each an index token of the `filters` column. */
export type FilterFact =
  | { readonly kind: 'shop'; readonly shopId: string }
  | { readonly kind: 'availableInShop'; readonly shopId: string }
  | { readonly kind: 'category'; readonly categoryId: string }
  | { readonly kind: 'displayedOnline'; readonly value: boolean }
  | { readonly kind: 'stockAvailable' };

/**
 * A token the tokenizer keeps whole: a letter for the kind and the identifier in hex (identifiers
 * are opaque strings with `_`, `-` and anything else, which the tokenizer would split).
 */
export function filterToken(fact: FilterFact): string {
  const hex = (id: string) => Buffer.from(id, 'utf8').toString('hex');
  switch (fact.kind) {
    case 'shop':
      return `s${hex(fact.shopId)}`;
    case 'availableInShop':
      return `a${hex(fact.shopId)}`;
    case 'category':
      return `c${hex(fact.categoryId)}`;
    case 'displayedOnline':
      return fact.value ? 'o1' : 'o0';
    case 'stockAvailable':
      return 'k1';
  }
}

/** The text query narrowed by filter facts, all resolved inside the index. */
export function ftsFilteredQuery(textQuery: string, facts: readonly FilterFact[]): string {
  return [textQuery, ...facts.map((fact) => `filters : "${filterToken(fact)}"`)].join(' AND ');
}
