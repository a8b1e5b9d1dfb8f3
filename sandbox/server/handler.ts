import type { z } from 'zod';
import type { Operation } from '../../shared/api/operation.ts';
import type { OperationName, Operations } from '../../shared/api/operations.ts';
import type { Scope } from '../../shared/api/scopes.ts';
import type { Account } from './accounts.ts';
import type { RecordedReply } from './idempotency.ts';
import type { SandboxState } from './state.ts';

type Output<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/** What a handler gets: the validated request, typed from the operation's schemas. */
export interface HandlerContext<Op extends Operation> {
  readonly state: SandboxState;
  /** null only for `POST /auth`. */
  readonly account: Account | null;
  /** The account's scopes as they are now. */
  readonly granted: ReadonlySet<Scope>;
  /** Blocks the scope rules leave out of the reply (handlers that page filter them first). */
  readonly omit: ReadonlySet<string>;
  readonly params: Output<Op['params']>;
  readonly query: Output<Op['query']>;
  /** The query as sent (strings), after validation. */
  readonly rawQuery: Readonly<Record<string, string>>;
  readonly headers: Output<Op['headers']>;
  readonly body: Output<Op['body']>;
  /** The body as parsed JSON, before the schema: what idempotency compares. */
  readonly json: unknown;
}

type ReplyJson<Op extends Operation> = Op['reply'] extends { json: infer S extends z.ZodType }
  ? z.input<S>
  : never;

export type HandlerReply<Op extends Operation> =
  | (Op['reply'] extends { json: z.ZodType } ? { readonly json: ReplyJson<Op> } : never)
  | (Op['reply'] extends { pdf: true }
      ? { readonly pdf: Uint8Array; readonly fileName: string }
      : never)
  /** A reply recorded earlier and sent again as it was (idempotent replay, recorded refusal). */
  | { readonly recorded: RecordedReply };

export type Handler<Op extends Operation> = (
  context: HandlerContext<Op>,
) => HandlerReply<Op> | Promise<HandlerReply<Op>>;

export type Handlers = { readonly [K in OperationName]: Handler<Operations[K]> };
