import type { z } from 'zod';
import { NotShownBody, NotShownQuery } from '../../shared/api/not-shown.ts';
import type { Operation } from '../../shared/api/operation.ts';
import { InvalidRequest, type RequestIssue, formatIssuePath } from './errors.ts';
import { JsonText } from './json-text.ts';
import type { HttpMethod } from './transport.ts';

/**
 * Turns `(operation, input)` into the exact request to send, or refuses it. Everything is
 * validated with the contract's strict schemas here, before a token is fetched or a byte is
 * sent: the API refuses unknown parameters anyway, and a kiosk should learn about its own bug
 * without spending a rate-limit slot on it.
 */

export interface PreparedRequest {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Absolute URL, parameters encoded. */
  readonly url: string;
  /** The path with its parameters filled in, no query: what the exchange hook reports. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Serialised once, so every retry sends exactly these bytes. */
  readonly body: string | undefined;
  readonly expects: 'json' | 'pdf';
}

const inputParts = ['params', 'query', 'headers', 'body'] as const;
type InputPart = (typeof inputParts)[number];

/** Header values travel as visible ASCII; anything else could split or smuggle a header. */
const headerValue = /^[\t\x20-\x7e]*$/;

function refuse(operationId: string, issues: RequestIssue[]): never {
  const first = issues[0];
  const explanation = first
    ? `${first.path === '' ? 'input' : first.path}: ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`
    : 'invalid input';
  throw new InvalidRequest({
    code: 'INVALID_REQUEST',
    explanation,
    operationId,
    local: true,
    issues,
  });
}

function parsePart(
  operationId: string,
  part: InputPart,
  schema: z.ZodType,
  value: unknown,
): unknown {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  refuse(
    operationId,
    result.error.issues.map((issue) => {
      // An unknown key is reported on its parent; name the key itself.
      const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
      return {
        path: formatIssuePath([...issue.path, ...keys.slice(0, 1)], part),
        message: issue.message,
      };
    }),
  );
}

function parseJsonText(operationId: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    refuse(operationId, [{ path: 'body', message: 'the serialised body is not JSON' }]);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `.` and `..` are identifiers a path normaliser would eat; everything else is encodeURIComponent. */
function encodePathSegment(value: string): string {
  return value === '.' || value === '..' ? value.replaceAll('.', '%2E') : encodeURIComponent(value);
}

function encodeQuery(operationId: string, query: unknown): string {
  if (query === undefined) return '';
  if (!isPlainObject(query))
    throw new Error(`${operationId}: the query schema must output an object`);
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    let text: string;
    if (typeof value === 'string') text = value;
    else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
    else throw new Error(`${operationId}: query parameter ${name} has no wire form`);
    pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

export function prepareRequest(
  operation: Operation,
  input: unknown,
  baseUrl: string,
): PreparedRequest {
  const { operationId } = operation;
  if (input !== undefined && !isPlainObject(input)) {
    refuse(operationId, [
      { path: '', message: 'expected an object with params, query, headers or body' },
    ]);
  }
  const given: Record<string, unknown> = input ?? {};
  const issues: RequestIssue[] = [];
  for (const key of Object.keys(given)) {
    if (!(inputParts as readonly string[]).includes(key)) {
      issues.push({
        path: key,
        message: 'unknown input member (expected params, query, headers or body)',
      });
    } else if (given[key] !== undefined && operation[key as InputPart] === undefined) {
      issues.push({ path: key, message: `${operationId} takes no ${key}` });
    }
  }
  if (issues.length > 0) refuse(operationId, issues);

  const params = operation.params
    ? parsePart(operationId, 'params', operation.params, given['params'])
    : undefined;
  // Where the spec does not show them, the caller's parameters go out as given: no guessed
  // names, no guessed defaults the service may refuse as unknown.
  const { notShown } = operation;
  const query = operation.query
    ? parsePart(
        operationId,
        'query',
        notShown?.query ? NotShownQuery : operation.query,
        given['query'] ?? {},
      )
    : undefined;
  const headers = operation.headers
    ? parsePart(operationId, 'headers', operation.headers, given['headers'] ?? {})
    : undefined;
  // Already serialised (the outbox's stored body): checked as parsed, sent as given.
  const givenBody = given['body'];
  const preserialised = givenBody instanceof JsonText ? givenBody.text : undefined;
  const body = operation.body
    ? parsePart(
        operationId,
        'body',
        notShown?.body ? NotShownBody : operation.body,
        preserialised === undefined ? givenBody : parseJsonText(operationId, preserialised),
      )
    : undefined;

  const paramValues = (params ?? {}) as Record<string, unknown>;
  const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = paramValues[name];
    if (typeof value !== 'string')
      throw new Error(`${operationId}: path parameter ${name} is not in the params schema`);
    return encodePathSegment(value);
  });

  const expects = 'pdf' in operation.reply ? 'pdf' : 'json';
  const sentHeaders: Record<string, string> = {
    Accept: expects === 'pdf' ? 'application/pdf' : 'application/json',
  };
  for (const [name, value] of Object.entries((headers ?? {}) as Record<string, unknown>)) {
    if (value === undefined) continue;
    const text = String(value);
    if (!headerValue.test(text))
      refuse(operationId, [{ path: `headers.${name}`, message: 'must be visible ASCII' }]);
    sentHeaders[name] = text;
  }
  let serialisedBody: string | undefined;
  if (operation.body) {
    serialisedBody = preserialised ?? JSON.stringify(body);
    sentHeaders['Content-Type'] = 'application/json';
  }

  return {
    operationId,
    method: operation.method,
    url: `${baseUrl}${path}${encodeQuery(operationId, query)}`,
    path,
    headers: sentHeaders,
    body: serialisedBody,
    expects,
  };
}

/** `https://host[:port][/prefix]`, no trailing slash, no query, no credentials in the URL. */
export function normaliseBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`base URL is not a URL: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError('base URL must be http or https');
  if (url.username || url.password) throw new TypeError('base URL must not carry credentials');
  if (url.search || url.hash) throw new TypeError('base URL must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
