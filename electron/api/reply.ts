import type { z } from 'zod';
import { type NotShown, notShownReplySchema } from '../../shared/api/not-shown.ts';
import { compiledSchema } from './compiled-schema.ts';
import { ContractViolation, errorFromReply, formatIssuePath } from './errors.ts';
import { checkPdf } from './pdf.ts';
import type { TransportReply } from './transport.ts';

/**
 * Reads one HTTP reply against the contract: a 2xx is parsed with the operation's reply schema
 * and the parsed value returned (never the raw JSON: defaults and transforms apply, unknown
 * members of closed objects are refused); anything else becomes its typed error. A reply the
 * spec does not show is held to its identifier only and returned as the service sent it.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true });

export interface ReplyExpectation {
  readonly operationId: string;
  readonly reply: { readonly json: z.ZodType } | { readonly pdf: true };
  readonly notShown?: NotShown;
}

export interface ReplyContext {
  /** Epoch ms, to resolve a Retry-After HTTP-date. */
  readonly now: number;
  readonly pdfMaxBytes: number;
}

function isJsonContentType(value: string | undefined): boolean {
  const type = (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/** Throws the typed error for a non-2xx reply or a reply that breaks the contract. */
export function readReply(
  expectation: ReplyExpectation,
  reply: TransportReply,
  context: ReplyContext,
): unknown {
  const { operationId } = expectation;
  if (reply.status < 200 || reply.status > 299) {
    throw errorFromReply({
      operationId,
      status: reply.status,
      headers: reply.headers,
      body: reply.body,
      now: context.now,
    });
  }
  if ('pdf' in expectation.reply) return checkPdf(operationId, reply, context.pdfMaxBytes);
  const shown = expectation.notShown?.reply;
  const schema = shown ? notShownReplySchema(shown) : expectation.reply.json;
  return parseJsonReply(operationId, schema, reply);
}

export function parseJsonReply(
  operationId: string,
  schema: z.ZodType,
  reply: TransportReply,
): unknown {
  const violation = (
    reason: 'content-type' | 'json' | 'shape',
    path: string,
    explanation: string,
  ) => new ContractViolation({ operationId, status: reply.status, reason, path, explanation });
  if (!isJsonContentType(reply.headers['content-type'])) {
    throw violation(
      'content-type',
      '',
      `expected application/json, got ${reply.headers['content-type'] ?? 'no content type'}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(utf8.decode(reply.body));
  } catch (error) {
    throw violation(
      'json',
      '',
      `the body is not JSON (${error instanceof Error ? error.message : 'unreadable'})`,
    );
  }
  const result = compiledSchema(schema).safeParse(json);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw violation('shape', '', 'the reply does not match the contract');
  const keys = issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [];
  const path = formatIssuePath([...issue.path, ...keys]);
  const more =
    result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  throw violation('shape', path, `${issue.message}${more}`);
}
