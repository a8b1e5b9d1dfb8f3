/**
 * Codes whose shape proves them whole: a check digit that a missing or extra character breaks,
 * or a fixed layout that a cut one leaves. A burst that arrived broken up is trusted only when
 * what it spelled has one of these shapes; a product reference (`VH69853FR`) has none, since its
 * first letters alone could be another reference.
 */

/** GTIN-8, UPC-A (12), EAN-13 and GTIN-14: the GS1 check digit (weights 3 and 1 from the right). */
function isGtin(code: string): boolean {
  if (!/^(?:\d{8}|\d{12,14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  const sum = digits
    .reverse()
    .reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** Receipt numbers as the service prints them: `V-2026-000123`, `F-2026-000610`, `SAV-2026-00042`. */
const DOCUMENT_NUMBER = /^(?:V|F|SAV)-\d{4}-\d{5,6}$/i;

/** The service's card ids: its prefix, then a whole UUID. */
const GIFT_CARD_ID = /^gift_card_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function hasWholeShape(code: string): boolean {
  return isGtin(code) || DOCUMENT_NUMBER.test(code) || GIFT_CARD_ID.test(code);
}
