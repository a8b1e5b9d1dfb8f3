import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from '../../shared/api/errors.ts';
import type { Operation } from '../../shared/api/operation.ts';
import { type OperationName, type Operations, operations } from '../../shared/api/operations.ts';
import type { Scope } from '../../shared/api/scopes.ts';
import type { Account } from './accounts.ts';
import { omitBlocks } from './blocks.ts';
import { ApiFailure, failure } from './errors.ts';
import type { Fault } from './faults.ts';
import type { Handler, HandlerContext, HandlerReply } from './handler.ts';
import { handlers } from './handlers/index.ts';
import { checkBaseScopes, conditionalBlocks } from './scopes.ts';
import type { SandboxState } from './state.ts';
import {
  type RawQuery,
  parseHeaders,
  parseJsonBody,
  parseParams,
  parseQuery,
  singleValuedQuery,
} from './validation.ts';

/** What goes back on the wire for one request. */
export interface Outcome {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload:
    { readonly json: unknown } | { readonly pdf: Uint8Array; readonly fileName: string };
}

/** `/v1/products/{productId}` (OpenAPI) to `/v1/products/:productId` (fastify). */
export function fastifyPath(openApiPath: string): string {
  return openApiPath.replace(/\{([^}]+)\}/g, ':$1');
}

export function failureOutcome(error: ApiFailure): Outcome {
  return { status: error.status, headers: error.headers, payload: { json: error.body } };
}

/** The account a request was made by, for the request log (never the token). */
export const requestAccounts = new WeakMap<FastifyRequest, string>();

export function send(reply: FastifyReply, outcome: Outcome): FastifyReply {
  reply.code(outcome.status).headers(outcome.headers);
  if ('pdf' in outcome.payload) {
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="${outcome.payload.fileName}"`)
      .send(Buffer.from(outcome.payload.pdf));
  }
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(outcome.payload.json));
}

/** Destroys the connection without a reply; a TCP reset where the platform allows it. */
export function resetConnection(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  const socket = request.raw.socket;
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

function injected(fault: Fault): ApiFailure {
  const retryAfter: Record<string, string> =
    fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
  switch (fault.kind) {
    case 'rate-limit':
      return new ApiFailure(
        429,
        errorBody('RATE_LIMITED', 'request limit reached (injected fault)'),
        {
          'retry-after': String(fault.retryAfterSeconds ?? 1),
        },
      );
    case 'unavailable':
      return new ApiFailure(
        503,
        errorBody('SERVICE_UNAVAILABLE', 'the service is under maintenance (injected fault)'),
        retryAfter,
      );
    case 'invalid-request':
      return new ApiFailure(
        400,
        errorBody('INVALID_REQUEST', 'unknown field in the body (injected fault)'),
      );
    default:
      return failure('INTERNAL_SERVER_ERROR', 'unexpected internal error (injected fault)');
  }
}

/**
 * The request pipeline of every contract operation, in the order the service answers:
 * faults, authentication (401), rate limit (429), the operation's base scopes (403), validation
 * of path, query, headers and body (400), the conditional scope rules (403 or blocks to omit),
 * then the handler, whose reply loses the omitted blocks.
 */
async function process<Op extends Operation>(
  state: SandboxState,
  name: OperationName,
  operation: Op,
  handler: Handler<Op>,
  request: FastifyRequest,
): Promise<Outcome> {
  let account: Account | null = null;
  if (operation.auth === 'jwt') {
    account = await state.tokens.authenticate(request.headers.authorization);
    requestAccounts.set(request, account.id);
  }
  state.rateLimiter.take(account ? `account:${account.id}` : `address:${request.ip}`);
  const granted: ReadonlySet<Scope> = new Set(account?.scopes ?? []);
  checkBaseScopes(operation, granted);

  // The dialect translates the wire's 'not shown' shapes to the default handlers' and back, so
  // everything between (ledger, idempotency, scopes) is the same whatever the dialect.
  const { dialect } = state;
  const rawQuery = dialect.query(name, singleValuedQuery(request.query as RawQuery));
  const params = parseParams(operation.params, request.params as Record<string, string>);
  const query = parseQuery(operation.query, rawQuery);
  const headers = parseHeaders(operation.headers, request.headers);
  let json: unknown;
  let body: unknown;
  if (operation.body) {
    ({ json, body } = parseJsonBody(
      operation.body,
      request.headers['content-type'],
      request.body as string | undefined,
      (sent) => dialect.body(name, sent),
    ));
  }
  const omit = conditionalBlocks(operation, granted, rawQuery);

  const context = {
    state,
    account,
    granted,
    omit,
    params,
    query,
    rawQuery,
    headers,
    body,
    json,
  } as HandlerContext<Op>;
  const result: HandlerReply<Op> = await handler(context);
  if ('recorded' in result) {
    const { status, body: recorded } = result.recorded;
    return {
      status,
      headers: {},
      payload: { json: status === 200 ? dialect.reply(name, recorded) : recorded },
    };
  }
  if ('pdf' in result)
    return { status: 200, headers: {}, payload: { pdf: result.pdf, fileName: result.fileName } };
  const reply = omit.size > 0 ? omitBlocks(result.json, omit) : result.json;
  return { status: 200, headers: {}, payload: { json: dialect.reply(name, reply) } };
}

function register<K extends OperationName>(
  app: FastifyInstance,
  state: SandboxState,
  name: K,
): void {
  const operation: Operations[K] = operations[name];
  const handler = handlers[name] as Handler<Operations[K]>;
  app.route({
    method: operation.method,
    url: fastifyPath(operation.path),
    handler: async (request, reply) => {
      const { latencyMs, action } = state.faults.draw(operation);
      if (latencyMs > 0) await delay(latencyMs);
      if (action?.kind === 'reset') {
        state.log.info('connection reset (injected fault)', { operation: operation.operationId });
        resetConnection(request, reply);
        return reply;
      }
      if (action && action.kind !== 'commit-then-reset')
        return send(reply, failureOutcome(injected(action)));

      let outcome: Outcome;
      try {
        outcome = await process(state, name, operation, handler, request);
      } catch (error) {
        if (!(error instanceof ApiFailure)) throw error;
        outcome = failureOutcome(error);
      }
      if (action?.kind === 'commit-then-reset') {
        state.log.info('processed, then connection reset (injected fault)', {
          operation: operation.operationId,
          status: outcome.status,
        });
        resetConnection(request, reply);
        return reply;
      }
      return send(reply, outcome);
    },
  });
}

export function registerOperations(app: FastifyInstance, state: SandboxState): void {
  for (const name of Object.keys(operations) as OperationName[]) register(app, state, name);
}
