import { z } from 'zod';
import { invalidRequest } from './errors.ts';

/**
 * Request validation with the contract's zod schemas, done here rather than by fastify: fastify
 * never sees a schema, so nothing is stripped, coerced or defaulted behind the contract's back.
 * The first offending member is named in the explanation (an unknown one first: the spec refuses
 * unknown parameters, and that is the most useful thing to say).
 */

type Where = 'query parameter' | 'path parameter' | 'header' | 'body field';

/** Raw query as fastify's query-string parser gives it: a repeated key arrives as an array. */
export type RawQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

const noQuery = z.strictObject({});

function describe(where: Where, error: z.ZodError): string {
  const issues = error.issues;
  const unknown = issues.find((issue) => issue.code === 'unrecognized_keys');
  if (unknown && unknown.code === 'unrecognized_keys') {
    const [first] = unknown.keys;
    return `unknown ${where} \`${first ?? ''}\`${where === 'query parameter' ? ' (unknown parameters are refused)' : ''}`;
  }
  const issue = issues[0];
  if (!issue) return `invalid ${where}`;
  if (issue.path.length === 0)
    return where === 'body field' ? `body: ${issue.message}` : issue.message;
  const name = issue.path.map(String).join('.');
  const message =
    issue.code === 'invalid_type' && issue.message.endsWith('received undefined')
      ? 'is required'
      : issue.message;
  return `${where} \`${name}\`: ${message}`;
}

/** Flattens the raw query to single strings; a repeated parameter is refused. */
export function singleValuedQuery(raw: RawQuery): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    if (typeof value !== 'string')
      throw invalidRequest(`query parameter \`${key}\` is given more than once`);
    query[key] = value;
  }
  return query;
}

export function parseQuery<S extends z.ZodType>(
  schema: S | undefined,
  query: Record<string, string>,
): z.output<S> {
  const result = (schema ?? noQuery).safeParse(query);
  if (!result.success) throw invalidRequest(describe('query parameter', result.error));
  return result.data as z.output<S>;
}

export function parseParams<S extends z.ZodType>(
  schema: S | undefined,
  params: Record<string, string>,
): z.output<S> {
  if (!schema) return {} as z.output<S>;
  const result = schema.safeParse(params);
  if (!result.success) throw invalidRequest(describe('path parameter', result.error));
  return result.data as z.output<S>;
}

/** Headers are case-insensitive on the wire: the schema's spelling is looked up in lower case. */
export function parseHeaders<S extends z.ZodObject>(
  schema: S | undefined,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): z.output<S> {
  if (!schema) return {} as z.output<S>;
  const picked: Record<string, string> = {};
  for (const name of Object.keys(schema.shape)) {
    const value = headers[name.toLowerCase()];
    if (Array.isArray(value)) throw invalidRequest(`header \`${name}\` is given more than once`);
    if (typeof value === 'string') picked[name] = value;
  }
  const result = schema.safeParse(picked);
  if (!result.success) throw invalidRequest(describe('header', result.error));
  return result.data as z.output<S>;
}

/**
 * Parses the raw JSON text of a write; returns both the parsed JSON (as sent, what idempotency
 * compares) and the body validated after `translate` (the dialect's body to the default one).
 */
export function parseJsonBody<S extends z.ZodType>(
  schema: S,
  contentType: string | undefined,
  raw: string | undefined,
  translate: (json: unknown) => unknown = (json) => json,
): { json: unknown; body: z.output<S> } {
  const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json')
    throw invalidRequest('the body must be JSON with `Content-Type: application/json`');
  if (raw === undefined || raw.trim() === '') throw invalidRequest('a JSON body is required');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalidRequest('the body is not valid JSON');
  }
  const result = schema.safeParse(translate(json));
  if (!result.success) throw invalidRequest(describe('body field', result.error));
  return { json, body: result.data as z.output<S> };
}
