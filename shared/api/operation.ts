import type { z } from 'zod';
import type { ErrorStatus } from './errors.ts';
import type { NotShown } from './not-shown.ts';
import type { PaginationKind } from './pagination.ts';
import type { Scope } from './scopes.ts';

/** What makes a conditional scope apply to a request. */
export type ScopeTrigger =
  | { readonly always: true }
  | { readonly queryPresent: string }
  | { readonly queryEquals: { readonly param: string; readonly value: string } }
  | { readonly queryIncludes: { readonly param: string; readonly values: readonly string[] } }
  /** Applies when a comma-list parameter is absent (meaning "all values") or includes one of `values`. */
  | {
      readonly queryAbsentOrIncludes: {
        readonly param: string;
        readonly values: readonly string[];
      };
    };

/**
 * A conditional scope rule of the spec, as data the sandbox enforces and the docs print.
 * `forbid`: the request is refused with 403 when the scopes are missing.
 * `omit`: the request succeeds and `block` is left out of the reply.
 */
export interface ConditionalScope {
  readonly scopes: readonly Scope[];
  readonly when: ScopeTrigger;
  readonly effect: 'forbid' | 'omit';
  /** The reply member left out, as a dotted path (`data[].contact`). */
  readonly block?: string;
  readonly note: string;
}

export interface OperationScopes {
  /** Every one of these is needed. */
  readonly all: readonly Scope[];
  /** At least one of these is needed (customer history). */
  readonly anyOf?: readonly Scope[];
  readonly conditional?: readonly ConditionalScope[];
}

export interface Operation {
  readonly operationId: string;
  readonly method: 'GET' | 'PUT' | 'POST';
  /** OpenAPI form: `/v1/products/{productId}`. */
  readonly path: string;
  readonly summary: string;
  /** `none`: only POST /auth; `jwt`: a bearer token is required. */
  readonly auth: 'none' | 'jwt';
  readonly scopes: OperationScopes;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodType;
  readonly headers?: z.ZodObject;
  readonly body?: z.ZodType;
  /** The 200 reply: JSON with its schema, or a PDF document. */
  readonly reply: { readonly json: z.ZodType } | { readonly pdf: true };
  readonly errors: readonly ErrorStatus[];
  readonly pagination: PaginationKind;
  /**
   * What the spec leaves 'not shown' here: the client sends those parts as the caller gave them
   * and reads them tolerantly (`not-shown.ts`); the schemas above stay the sandbox's shapes.
   */
  readonly notShown?: NotShown;
}

/** Keeps the literal types of an operation while checking it against `Operation`. */
export function defineOperation<const T extends Operation>(operation: T): T {
  return operation;
}
