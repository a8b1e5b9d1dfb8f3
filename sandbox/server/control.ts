import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { CatalogChange } from '../../shared/api/catalog.ts';
import { Scope } from '../../shared/api/scopes.ts';
import type { Account } from './accounts.ts';
import { ApiFailure, invalidRequest, notFound } from './errors.ts';
import { type Fault, FaultSpec } from './faults.ts';
import type { LedgerEntry } from './ledger.ts';
import type { RateLimitSettings } from './rate-limit.ts';
import type { RequestRateSecond } from './request-rate.ts';
import { failureOutcome, send } from './routes.ts';
import type { SandboxState } from './state.ts';
import { parseJsonBody, parseQuery, singleValuedQuery, type RawQuery } from './validation.ts';

/*
 * Control surface, outside the contract: only with `--control` (`control: true`); otherwise these
 * paths are unknown routes (404) like any other. No authentication: it is a local test tool bound
 * to 127.0.0.1. Bodies are JSON (`Content-Type: application/json`), replies are JSON, errors use
 * the spec's error object.
 *
 *   GET    /__sandbox/                          state: clock, seed, accounts, faults, settings
 *   GET    /__sandbox/faults                    { faults }
 *   POST   /__sandbox/faults                    arm a fault → 201 { fault }
 *            { kind: latency|rate-limit|internal-error|unavailable|reset|commit-then-reset,
 *              route?: operationId or OpenAPI path (absent: every operation), method?: GET|PUT|POST,
 *              count?: next N matching requests (absent: until cleared), probability?: 0..1,
 *              latencyMs?: (latency), retryAfterSeconds?: (rate-limit, unavailable) }
 *   DELETE /__sandbox/faults                    clear every fault → { cleared }
 *   DELETE /__sandbox/faults/{id}               clear one fault
 *   POST   /__sandbox/accounts/{email}/revoke   the account's tokens and logins answer 401
 *   POST   /__sandbox/accounts/{email}/restore
 *   PUT    /__sandbox/accounts/{email}/scopes   { scopes: [...] } replaces the scopes (effective at once)
 *   POST   /__sandbox/tokens/revoke             { token } or { jti } → that token answers 401
 *   POST   /__sandbox/tokens/restore            { token } or { jti }
 *   PUT    /__sandbox/tokens/ttl                { seconds } lifetime of tokens issued from now on
 *   GET    /__sandbox/clock                     { now }
 *   POST   /__sandbox/clock/advance             { ms } → { now }
 *   POST   /__sandbox/activity/advance          { steps } → { now, changes }
 *   POST   /__sandbox/reset                     back to the seed (data, accounts, revocations,
 *                                               idempotency keys, ledger, rate buckets) → { now }
 *   GET    /__sandbox/ledger[?giftCardId=]      { debits: [{ giftCardId, usageId, amount, currency,
 *                                               idempotencyKey, reference, accountId, at, balanceAfter }] }
 *   PUT    /__sandbox/rate-limit                { capacity, refillPerSecond }
 *   PUT    /__sandbox/rate-limit/service        { capacity, refillPerSecond } one bucket for all callers
 *   DELETE /__sandbox/rate-limit/service        no service-wide limit
 *   GET    /__sandbox/request-rate[?since=]     { seconds: [{ second, admitted, limited }] }: requests
 *                                               that met the limiter, per second (epoch s, sandbox clock)
 *   POST   /__sandbox/outage                    every request but these routes' loses its connection
 *   DELETE /__sandbox/outage                    the outage ends → { active, dropped }
 *   PUT    /__sandbox/idempotency               { retentionMs }
 *   PUT    /__sandbox/usages                    { empty } true: every gift card answers an empty
 *                                               usage list (debits still applied and in the ledger)
 */

export interface AccountView {
  readonly email: string;
  readonly scopes: readonly Scope[];
  readonly revoked: boolean;
}

const accountView = (account: Account): AccountView => ({
  email: account.email,
  scopes: [...account.scopes],
  revoked: account.revoked,
});

export interface OutageView {
  readonly active: boolean;
  /** Requests whose connection was dropped, over every outage so far. */
  readonly dropped: number;
}

/** The same controls in process, for embedders and tests that start the sandbox themselves. */
export class SandboxControl {
  readonly #state: SandboxState;

  constructor(state: SandboxState) {
    this.#state = state;
  }

  now(): Date {
    return this.#state.clock.now();
  }

  advanceClock(ms: number): Date {
    return this.#state.clock.advance(ms);
  }

  advanceActivity(steps: number): CatalogChange[] {
    return this.#state.advanceActivity(steps);
  }

  addFault(spec: FaultSpec): Fault {
    return this.#state.faults.add(FaultSpec.parse(spec));
  }

  faults(): readonly Fault[] {
    return this.#state.faults.list();
  }

  removeFault(id: string): boolean {
    return this.#state.faults.remove(id);
  }

  clearFaults(): number {
    const count = this.#state.faults.list().length;
    this.#state.faults.clear();
    return count;
  }

  #account(email: string): Account {
    const account = this.#state.accounts.byEmail(email);
    if (!account) throw notFound(`no integration account ${email}`);
    return account;
  }

  accounts(): AccountView[] {
    return this.#state.accounts.list().map(accountView);
  }

  revokeAccount(email: string): AccountView {
    const account = this.#account(email);
    account.revoked = true;
    return accountView(account);
  }

  restoreAccount(email: string): AccountView {
    const account = this.#account(email);
    account.revoked = false;
    return accountView(account);
  }

  setScopes(email: string, scopes: readonly Scope[]): AccountView {
    const account = this.#account(email);
    account.scopes = new Set(scopes);
    return accountView(account);
  }

  revokeToken(which: { token?: string; jti?: string }): string {
    return this.#state.tokens.revoke(which);
  }

  restoreToken(which: { token?: string; jti?: string }): string {
    return this.#state.tokens.restore(which);
  }

  setTokenTtl(seconds: number): void {
    this.#state.tokens.ttlSeconds = seconds;
  }

  reset(): Date {
    this.#state.reset();
    return this.#state.clock.now();
  }

  ledger(giftCardId?: string): readonly LedgerEntry[] {
    return this.#state.ledger.list(giftCardId);
  }

  setRateLimit(settings: RateLimitSettings): void {
    this.#state.rateLimiter.configure(settings);
  }

  /** One bucket for the whole service on top of the per-caller ones; null removes it. */
  setServiceRateLimit(settings: RateLimitSettings | null): void {
    this.#state.rateLimiter.configureService(settings);
  }

  /** Requests that met the limiter, per second (epoch seconds, sandbox clock). */
  requestRate(sinceSecond?: number): RequestRateSecond[] {
    return this.#state.rateLimiter.rate.list(sinceSecond);
  }

  /** Every caller loses its connections until `endOutage` (the control surface stays up). */
  beginOutage(): OutageView {
    this.#state.outage.begin();
    return this.outage();
  }

  endOutage(): OutageView {
    this.#state.outage.end();
    return this.outage();
  }

  outage(): OutageView {
    return { active: this.#state.outage.active, dropped: this.#state.outage.dropped };
  }

  setIdempotencyRetention(ms: number): void {
    this.#state.idempotency.retentionMs = ms;
  }

  /** Every gift card answers an empty usage list, as a service that never fills it would. */
  setEmptyUsages(empty: boolean): void {
    this.#state.emptyUsages = empty;
  }

  overview() {
    const state = this.#state;
    return {
      now: state.clock.now().toISOString(),
      seed: state.seed,
      products: state.data.products.size,
      accounts: this.accounts(),
      faults: state.faults.list(),
      rateLimit: state.rateLimiter.settings,
      serviceRateLimit: state.rateLimiter.serviceSettings,
      outage: this.outage(),
      idempotencyRetentionMs: state.idempotency.retentionMs,
      emptyUsages: state.emptyUsages,
      tokenTtlSeconds: state.tokens.ttlSeconds,
    };
  }
}

const TokenRef = z.union([
  z.strictObject({ token: z.string().min(1) }),
  z.strictObject({ jti: z.string().min(1) }),
]);
const ScopesBody = z.strictObject({ scopes: z.array(Scope) });
const AdvanceClockBody = z.strictObject({ ms: z.number().int().min(0) });
const AdvanceActivityBody = z.strictObject({ steps: z.number().int().min(1).max(100_000) });
const RateLimitBody = z.strictObject({
  capacity: z.number().min(1),
  refillPerSecond: z.number().min(0),
});
const RetentionBody = z.strictObject({ retentionMs: z.number().int().min(0) });
const UsagesBody = z.strictObject({ empty: z.boolean() });
const TtlBody = z.strictObject({ seconds: z.number().int().min(1) });
const LedgerQuery = z.strictObject({ giftCardId: z.string().min(1).optional() });
const RequestRateQuery = z.strictObject({
  since: z
    .string()
    .regex(/^\d{1,12}$/, 'whole seconds since the epoch')
    .transform(Number)
    .optional(),
});
/** Routes that read query parameters; every other control route refuses any. */
const queryRoutes = new Set(['/ledger', '/request-rate']);

function bodyOf<S extends z.ZodType>(schema: S, request: FastifyRequest): z.output<S> {
  return parseJsonBody(schema, request.headers['content-type'], request.body as string | undefined)
    .body;
}

function emailOf(request: FastifyRequest): string {
  return (request.params as { email: string }).email;
}

export function registerControl(app: FastifyInstance, state: SandboxState): void {
  const control = new SandboxControl(state);
  state.outage.attach(app);
  const route = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    answer: (request: FastifyRequest) => unknown,
    status = 200,
  ) => {
    app.route({
      method,
      url: `/__sandbox${url}`,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        try {
          if (!queryRoutes.has(url))
            parseQuery(undefined, singleValuedQuery(request.query as RawQuery));
          return send(reply, { status, headers: {}, payload: { json: await answer(request) } });
        } catch (error) {
          if (error instanceof ApiFailure) return send(reply, failureOutcome(error));
          throw error;
        }
      },
    });
  };

  route('GET', '/', () => control.overview());

  route('GET', '/faults', () => ({ faults: control.faults() }));
  route(
    'POST',
    '/faults',
    (request) => ({ fault: state.faults.add(bodyOf(FaultSpec, request)) }),
    201,
  );
  route('DELETE', '/faults', () => ({ cleared: control.clearFaults() }));
  route('DELETE', '/faults/:id', (request) => {
    const { id } = request.params as { id: string };
    if (!control.removeFault(id)) throw notFound(`no fault ${id}`);
    return { removed: id };
  });

  route('POST', '/accounts/:email/revoke', (request) => ({
    account: control.revokeAccount(emailOf(request)),
  }));
  route('POST', '/accounts/:email/restore', (request) => ({
    account: control.restoreAccount(emailOf(request)),
  }));
  route('PUT', '/accounts/:email/scopes', (request) => ({
    account: control.setScopes(emailOf(request), bodyOf(ScopesBody, request).scopes),
  }));

  /** Revoking and restoring name the token the same way, and refuse an unreadable one alike. */
  const onToken = (
    request: FastifyRequest,
    apply: (which: { token?: string; jti?: string }) => string,
  ): string => {
    const body = bodyOf(TokenRef, request);
    const which = 'token' in body ? { token: body.token } : { jti: body.jti };
    try {
      return apply(which);
    } catch {
      throw invalidRequest('the token cannot be decoded or has no jti');
    }
  };
  route('POST', '/tokens/revoke', (request) => ({
    jti: onToken(request, (which) => control.revokeToken(which)),
    revoked: true,
  }));
  route('POST', '/tokens/restore', (request) => ({
    jti: onToken(request, (which) => control.restoreToken(which)),
    revoked: false,
  }));
  route('PUT', '/tokens/ttl', (request) => {
    const { seconds } = bodyOf(TtlBody, request);
    control.setTokenTtl(seconds);
    return { seconds };
  });

  route('GET', '/clock', () => ({ now: control.now().toISOString() }));
  route('POST', '/clock/advance', (request) => ({
    now: control.advanceClock(bodyOf(AdvanceClockBody, request).ms).toISOString(),
  }));

  route('POST', '/activity/advance', (request) => {
    const changes = control.advanceActivity(bodyOf(AdvanceActivityBody, request).steps);
    return { now: control.now().toISOString(), changes };
  });

  route('POST', '/reset', () => ({ now: control.reset().toISOString() }));

  route('GET', '/ledger', (request) => {
    const { giftCardId } = parseQuery(LedgerQuery, singleValuedQuery(request.query as RawQuery));
    return { debits: control.ledger(giftCardId) };
  });

  route('PUT', '/rate-limit', (request) => {
    const settings = bodyOf(RateLimitBody, request);
    control.setRateLimit(settings);
    return settings;
  });
  route('PUT', '/rate-limit/service', (request) => {
    const settings = bodyOf(RateLimitBody, request);
    control.setServiceRateLimit(settings);
    return settings;
  });
  route('DELETE', '/rate-limit/service', () => {
    control.setServiceRateLimit(null);
    return { serviceRateLimit: null };
  });
  route('GET', '/request-rate', (request) => {
    const { since } = parseQuery(RequestRateQuery, singleValuedQuery(request.query as RawQuery));
    return { seconds: control.requestRate(since) };
  });
  route('POST', '/outage', () => control.beginOutage());
  route('DELETE', '/outage', () => control.endOutage());

  route('PUT', '/idempotency', (request) => {
    const { retentionMs } = bodyOf(RetentionBody, request);
    control.setIdempotencyRetention(retentionMs);
    return { retentionMs };
  });
  route('PUT', '/usages', (request) => {
    const { empty } = bodyOf(UsagesBody, request);
    control.setEmptyUsages(empty);
    return { empty };
  });
}
