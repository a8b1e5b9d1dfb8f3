/** Normalized text for searches: accents, case and surrounding spaces do not matter. */
export function normalizeText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Phone numbers compare on their digits (`06 12 34 56 78` = `0612345678`). */
export function normalizePhone(phone: string): string {
  return phone.replace(/[^\d+]/g, '');
}
