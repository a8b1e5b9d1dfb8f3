import { z } from 'zod';
import { Id, Text } from './primitives.ts';

/**
 * What the specification marks 'not shown', as the client sends and reads it. The contract's own
 * schemas for those parts (`Sale`, `SalesQuery`...) are the sandbox's guesses; a real service
 * shapes them its own way, so the client holds them to nothing but what the kiosk cannot work
 * without: a record's public identifier (`id` or `uuid`, as the spec names it), and `data` on a
 * list. Everything else is kept exactly as returned and read through the integration profile
 * (`shared/profile`).
 */

/** The public identifier a 'not shown' record must carry; `none` for records without one. */
export type NotShownIdentity = 'id' | 'uuid' | 'none';

export interface NotShownReply {
  /** `record`: one object. `list`: an object whose `data` is an array of them. */
  readonly shape: 'record' | 'list';
  readonly identity: NotShownIdentity;
}

/** The parts of one operation the spec leaves 'not shown'. */
export interface NotShown {
  /** The caller's query parameters are sent as given, whatever their names; nothing is added. */
  readonly query?: true;
  /** Any JSON object, sent as given (the debit body, built from the integration profile). */
  readonly body?: true;
  readonly reply?: NotShownReply;
}

/** A record as the service returned it: its identifier checked, every member kept. */
export type NotShownRecord<I extends NotShownIdentity = 'none'> = (I extends 'none'
  ? unknown
  : { readonly [K in I]: string }) & { readonly [member: string]: unknown };

/** A list reply as the service returned it: `data` checked, pagination and the rest kept. */
export type NotShownList<I extends NotShownIdentity = 'none'> = {
  readonly data: readonly NotShownRecord<I>[];
} & { readonly [member: string]: unknown };

export type NotShownReplyOf<R extends NotShownReply> = R['shape'] extends 'list'
  ? NotShownList<R['identity']>
  : NotShownRecord<R['identity']>;

/** A query value on the wire; `undefined` members are left out. */
export type NotShownQuery = Readonly<Record<string, string | number | boolean | undefined>>;
export const NotShownQuery = z.record(
  Text.min(1).max(100),
  z.union([Text, z.number(), z.boolean(), z.undefined()]),
);

/** JSON whose every string (keys too) is well-formed Unicode, as every door of the kiosk takes. */
const WellFormedJson: z.ZodType<unknown> = z.lazy(() =>
  z.union([
    Text,
    z.number(),
    z.boolean(),
    z.null(),
    z.array(WellFormedJson),
    z.record(Text, WellFormedJson),
  ]),
);

export type NotShownBody = Readonly<Record<string, unknown>>;
export const NotShownBody = z.record(Text, WellFormedJson);

/**
 * Built once per shape and identity, never per reply: the client keeps a compiled parser for each
 * schema object it is given (`electron/api/compiled-schema.ts`), and a schema built anew for every
 * reply would be compiled anew too.
 */
const replySchemas = new Map<string, z.ZodType>();

function recordOf(identity: NotShownIdentity): z.ZodType {
  return identity === 'none' ? z.looseObject({}) : z.looseObject({ [identity]: Id });
}

/** The tolerant reply schema: it checks the identifier (and `data`) and keeps every member. */
export function notShownReplySchema(reply: NotShownReply): z.ZodType {
  const key = `${reply.shape}:${reply.identity}`;
  let schema = replySchemas.get(key);
  if (!schema) {
    const record = recordOf(reply.identity);
    schema = reply.shape === 'record' ? record : z.looseObject({ data: z.array(record) });
    replySchemas.set(key, schema);
  }
  return schema;
}
