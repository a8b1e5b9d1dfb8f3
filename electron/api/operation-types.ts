import type { z } from 'zod';
import type {
  NotShownBody,
  NotShownQuery,
  NotShownReply,
  NotShownReplyOf,
} from '../../shared/api/not-shown.ts';
import type { OperationName, Operations } from '../../shared/api/operations.ts';
import type { PdfDocument } from './pdf.ts';

/**
 * The client's public types, computed from the contract table: the input of an operation is the
 * `z.input` of its params/query/headers/body schemas (so a query takes `limit: 100` or
 * `limit: '100'`), its output the `z.output` of its reply schema, or a checked PDF.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ParamsInput<Op> = Op extends { readonly params: infer S extends z.ZodType }
  ? { readonly params: z.input<S> }
  : { readonly params?: undefined };

/**
 * Required only when the schema has a required member (the change feed's `since`). A query the
 * spec does not show takes any parameter names: the service's, from the integration profile.
 */
type QueryInput<Op> = Op extends { readonly notShown: { readonly query: true } }
  ? { readonly query?: NotShownQuery }
  : Op extends { readonly query: infer S extends z.ZodType }
    ? object extends z.input<S>
      ? { readonly query?: z.input<S> }
      : { readonly query: z.input<S> }
    : { readonly query?: undefined };

type HeadersInput<Op> = Op extends { readonly headers: infer S extends z.ZodType }
  ? { readonly headers: z.input<S> }
  : { readonly headers?: undefined };

type BodyInput<Op> = Op extends { readonly notShown: { readonly body: true } }
  ? { readonly body: NotShownBody }
  : Op extends { readonly body: infer S extends z.ZodType }
    ? { readonly body: z.input<S> }
    : { readonly body?: undefined };

export type OperationInput<N extends OperationName> = Simplify<
  ParamsInput<Operations[N]> &
    QueryInput<Operations[N]> &
    HeadersInput<Operations[N]> &
    BodyInput<Operations[N]>
>;

/** A reply the spec does not show is the service's own JSON, its identifier checked. */
export type OperationOutput<N extends OperationName> = Operations[N] extends {
  readonly notShown: { readonly reply: infer R extends NotShownReply };
}
  ? NotShownReplyOf<R>
  : Operations[N]['reply'] extends { readonly json: infer S extends z.ZodType }
    ? z.output<S>
    : PdfDocument;

export interface CallOptions {
  /** Cancels the call, its retries and their waits; the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /**
   * Send on a connection opened for this call alone, never a pooled keep-alive one (see
   * `TransportRequest.freshConnection`): a failure to connect then proves nothing left the kiosk.
   */
  readonly freshConnection?: boolean;
  /** With `freshConnection`: most time that connection may take to open (the client's otherwise). */
  readonly connectTimeoutMs?: number;
}

/** `(input, options?)`, the input optional when nothing in it is required. */
export type OperationArgs<N extends OperationName> =
  object extends OperationInput<N>
    ? [input?: OperationInput<N>, options?: CallOptions]
    : [input: OperationInput<N>, options?: CallOptions];
