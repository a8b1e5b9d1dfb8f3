/**
 * French formatting for the sandbox's documents, done by hand rather than with Intl number
 * formats: fr-FR separates thousands with a narrow no-break space (U+202F) that the PDF standard
 * fonts (WinAnsi) cannot encode. Times are shown in the shops' time zone.
 */

const TIME_ZONE = 'Europe/Paris';

/** `1 280,98 €` (plain spaces). */
export function formatEuros(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const whole = String(Math.floor(cents / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  const sign = amount < 0 && cents > 0 ? '-' : '';
  return `${sign}${whole},${String(cents % 100).padStart(2, '0')} €`;
}

const dateParts = new Intl.DateTimeFormat('fr-FR', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

function parts(isoDateTime: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of dateParts.formatToParts(new Date(isoDateTime))) out[part.type] = part.value;
  return out;
}

/** `15/03/2026` in Paris time. */
export function formatDate(isoDateTime: string): string {
  const p = parts(isoDateTime);
  return `${p.day}/${p.month}/${p.year}`;
}

/** `15/03/2026 11:05` in Paris time. */
export function formatDateTime(isoDateTime: string): string {
  const p = parts(isoDateTime);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}
