import type { OperationName } from '../../shared/api/operations.ts';

export const dialectNames = ['default', 'alternate', 'minimal'] as const;
export type DialectName = (typeof dialectNames)[number];

/**
 * How one dialect of the service shapes what the specification leaves 'not shown'. The default
 * handlers speak the default dialect; a dialect translates around them, so the ledger,
 * idempotency, scopes and faults behave the same whatever the wire shapes are. Each method
 * throws an `ApiFailure` (400) for a request the dialect refuses.
 */
export interface Dialect {
  readonly name: DialectName;
  /** The query as sent, translated to the default dialect's parameters. */
  query(operation: OperationName, query: Readonly<Record<string, string>>): Record<string, string>;
  /** A write's parsed JSON body, translated to the default dialect's body. */
  body(operation: OperationName, json: unknown): unknown;
  /** A success reply of the default handlers, reshaped for the wire. */
  reply(operation: OperationName, json: unknown): unknown;
}

/** The sandbox's own shapes: the ones `shared/api/` describes. */
export const defaultDialect: Dialect = {
  name: 'default',
  query: (_operation, query) => ({ ...query }),
  body: (_operation, json) => json,
  reply: (_operation, json) => json,
};
