/** EAN-13 barcodes: the check digit is what scanners verify, so seeded codes must carry a valid one. */

/** The check digit of the first 12 digits (weights 1,3,1,3,... from the left). */
export function ean13CheckDigit(first12: string): number {
  if (!/^\d{12}$/.test(first12)) throw new Error(`EAN-13 body must be 12 digits, got ${first12}`);
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export function isValidEan13(code: string): boolean {
  return /^\d{13}$/.test(code) && ean13CheckDigit(code.slice(0, 12)) === Number(code[12]);
}

/**
 * A French-prefixed (300-379 range) EAN-13 unique for each `serial` below 10^9: the serial is
 * spread by an odd multiplier (a bijection modulo 10^9) so neighbouring products get unrelated codes.
 */
export function ean13ForSerial(serial: number): string {
  // serial * 7_654_321 stays below 2^53 for serials below 10^9, so plain numbers are exact.
  const spread = (((serial * 7_654_321) % 1_000_000_000) + 123_456_789) % 1_000_000_000;
  const body = `376${String(spread).padStart(9, '0')}`;
  // join: one flat string rather than a concatenation node (see ids.ts).
  return [body, ean13CheckDigit(body)].join('');
}
