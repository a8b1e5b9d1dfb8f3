/**
 * The classes of trouble a kiosk can be in, as `kioskctl status` reports them. The order is the
 * precedence when several hold at once: what costs money first. A debit refused after the
 * customer left is money already lost until staff collect it; a paused sender keeps debits from
 * ever reaching the service until an administrator acts; offline they wait but will go out on
 * their own; a stale mirror shows staff old stock and prices; a printer problem stops receipts;
 * a wrong kiosk clock misdates the local day report and the logs.
 */
export const troubleClasses = [
  'debit-attention',
  'sender-paused',
  'configuration',
  'offline',
  'stale-mirror',
  'printer',
  'clock',
] as const;

export type TroubleClass = (typeof troubleClasses)[number];

/** One thing wrong, in words a technician can act on. */
export interface Problem {
  readonly class: TroubleClass;
  /** Stable, for scripts: `DEBITS_NEED_ATTENTION`, `SERVICE_UNREACHABLE`... */
  readonly code: string;
  readonly message: string;
  /** What to do next. */
  readonly next: string;
}

/** The problems most important first (stable within a class). */
export function byPrecedence(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) => troubleClasses.indexOf(a.class) - troubleClasses.indexOf(b.class),
  );
}

/** `healthy`, or the class of the most important problem. */
export function verdictOf(problems: readonly Problem[]): TroubleClass | 'healthy' {
  return byPrecedence(problems)[0]?.class ?? 'healthy';
}
