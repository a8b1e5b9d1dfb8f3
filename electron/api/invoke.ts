import { performance } from 'node:perf_hooks';
import type { Operation } from '../../shared/api/operation.ts';
import type { Logger } from '../logging/index.ts';
import type { Clock } from '../foundation/index.ts';
import type { ConnectivityMonitor } from './connectivity.ts';
import { outcomeOfError } from './connectivity.ts';
import {
  type AnyApiError,
  ContractViolation,
  CredentialsRejected,
  NetworkError,
  Timeout,
  isCommerceApiError,
} from './errors.ts';
import { readReply } from './reply.ts';
import { type PreparedRequest, prepareRequest } from './request.ts';
import { type RetryBudget, type RetryPolicy, decideRetry, retryClassOf } from './retry-policy.ts';
import type { AccessToken, TokenManager } from './token.ts';
import type { Transport, TransportFailure } from './transport.ts';

/**
 * The one generic path every operation takes: validate, (get a token), send, read the reply,
 * and decide about a retry. Internal: the public surface is the typed methods of the client,
 * each bound to one row of the contract table, so nothing can call a route outside it.
 */

/** Reported for every HTTP exchange, retries included: metrics, tests, diagnostics. */
export interface ExchangeEvent {
  readonly operationId: string;
  readonly method: string;
  /** The path with its parameters, without the query string (which may hold contact data). */
  readonly path: string;
  /** 1 for the first attempt; a resend after a token renewal counts as a new exchange. */
  readonly exchange: number;
  readonly status: number | undefined;
  /** The error kind when the exchange failed or was answered with an error. */
  readonly errorKind: string | undefined;
  readonly durationMs: number;
}

/** How each HTTP attempt of one call goes out (see `TransportRequest`). */
export interface SendingOptions {
  /** On a connection opened for that attempt alone, never a pooled keep-alive one. */
  readonly freshConnection?: boolean;
  /** With `freshConnection`: most time that connection may take to open. */
  readonly connectTimeoutMs?: number;
}

export interface InvokerContext {
  readonly baseUrl: string;
  readonly transport: Transport;
  readonly policy: RetryPolicy;
  readonly budget: RetryBudget;
  readonly clock: Clock;
  readonly random: () => number;
  readonly logger: Logger;
  readonly connectivity: ConnectivityMonitor;
  readonly pdfMaxBytes: number;
  readonly jsonMaxBytes: number;
  readonly onExchange: ((event: ExchangeEvent) => void) | undefined;
}

export function errorFromFailure(
  operationId: string,
  failure: Exclude<TransportFailure, { kind: 'aborted' }>,
): AnyApiError {
  switch (failure.kind) {
    case 'timeout':
      return new Timeout({
        code: 'TIMEOUT',
        explanation:
          failure.phase === 'connect'
            ? `no connection within ${failure.timeoutMs} ms (nothing was sent)`
            : `no complete reply within ${failure.timeoutMs} ms (the outcome is unknown)`,
        operationId,
        phase: failure.phase,
        timeoutMs: failure.timeoutMs,
      });
    case 'too-large':
      return new ContractViolation({
        operationId,
        reason: 'too-large',
        path: '',
        explanation: `the reply exceeds ${failure.maxBytes} bytes`,
      });
    case 'network':
      return new NetworkError({
        code: 'NETWORK_ERROR',
        explanation: `${failure.message}${failure.requestSent ? ' (the outcome is unknown)' : ' (nothing was sent)'}`,
        operationId,
        requestSent: failure.requestSent,
        systemCode: failure.systemCode,
      });
  }
}

export class OperationInvoker {
  readonly #context: InvokerContext;
  #tokens: TokenManager | undefined;

  constructor(context: InvokerContext) {
    this.#context = context;
  }

  /** Set once by the client: the token manager itself calls back into `invoke` for POST /auth. */
  attachTokens(tokens: TokenManager): void {
    this.#tokens = tokens;
  }

  async invoke(
    operation: Operation,
    input: unknown,
    signal?: AbortSignal,
    sending: SendingOptions = {},
  ): Promise<unknown> {
    const prepared = prepareRequest(operation, input, this.#context.baseUrl);
    signal?.throwIfAborted();
    return this.#send(operation, prepared, signal, sending);
  }

  async #send(
    operation: Operation,
    prepared: PreparedRequest,
    signal: AbortSignal | undefined,
    sending: SendingOptions,
  ): Promise<unknown> {
    const { clock, logger, policy, budget, random } = this.#context;
    const retryClass = retryClassOf(operation);
    let attempt = 0;
    let exchange = 0;
    let renewedAfterRejection = false;

    for (;;) {
      attempt += 1;
      exchange += 1;
      let token: AccessToken | undefined;
      if (operation.auth === 'jwt') {
        if (!this.#tokens) throw new Error('the token manager is not attached');
        token = await this.#tokens.current();
        signal?.throwIfAborted();
      }
      const result = await this.#exchangeOnce(
        operation,
        prepared,
        token,
        exchange,
        signal,
        sending,
      );
      if (!result.failed) return result.value;
      const failure = result.error;

      if (failure.kind === 'Unauthorized') {
        if (operation.auth === 'none') {
          throw new CredentialsRejected({
            code: failure.code,
            status: failure.status,
            explanation: `POST /auth refused the integration account (${failure.explanation}); an administrator must fix the account or its credentials`,
            operationId: operation.operationId,
          });
        }
        if (token && !renewedAfterRejection && this.#tokens) {
          // One renewal and one resend: an expired or revoked token is routine, and the resend
          // does not count as a retry (the request was refused, not processed).
          renewedAfterRejection = true;
          attempt -= 1;
          await this.#tokens.renewAfterRejection(token);
          continue;
        }
        throw new CredentialsRejected({
          code: failure.code,
          status: failure.status,
          explanation: `a freshly issued token was refused too (${failure.explanation}); the integration account must be fixed (revoked, disabled or without a usable identity)`,
          operationId: operation.operationId,
        });
      }

      const decision = decideRetry({ policy, retryClass, error: failure, attempt, random });
      if (!decision.retry) {
        // A 404 or 409 is a business answer, not an incident; transient failures that outlived
        // their retries are.
        const level = decision.reason === 'not-retryable' ? 'info' : 'warn';
        logger[level]('api.call.failed', {
          operationId: operation.operationId,
          kind: failure.kind,
          code: failure.code,
          status: failure.status ?? null,
          attempts: attempt,
          why: decision.reason,
        });
        throw failure;
      }
      if (!budget.tryTake()) {
        logger.warn('api.retry.budget_exhausted', {
          operationId: operation.operationId,
          kind: failure.kind,
          code: failure.code,
          attempts: attempt,
        });
        throw failure;
      }
      logger.info('api.retry.scheduled', {
        operationId: operation.operationId,
        attempt,
        delayMs: decision.delayMs,
        basis: decision.basis,
        failure: decision.failure,
        code: failure.code,
      });
      await clock.sleep(decision.delayMs, signal);
    }
  }

  async #exchangeOnce(
    operation: Operation,
    prepared: PreparedRequest,
    token: AccessToken | undefined,
    exchange: number,
    signal: AbortSignal | undefined,
    sending: SendingOptions,
  ): Promise<
    | { readonly failed: false; readonly value: unknown }
    | { readonly failed: true; readonly error: AnyApiError }
  > {
    const { transport, clock, logger, connectivity } = this.#context;
    const headers = token
      ? { ...prepared.headers, Authorization: `Bearer ${token.value}` }
      : prepared.headers;
    const started = performance.now();
    const outcome = await transport.send({
      method: prepared.method,
      url: prepared.url,
      headers,
      body: prepared.body,
      maxBytes: prepared.expects === 'pdf' ? this.#context.pdfMaxBytes : this.#context.jsonMaxBytes,
      signal,
      freshConnection: sending.freshConnection === true,
      connectTimeoutMs: sending.connectTimeoutMs,
    });
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    if (!outcome.ok && outcome.failure.kind === 'aborted') throw outcome.failure.reason;

    let value: unknown;
    let error: AnyApiError | undefined;
    if (outcome.ok) {
      try {
        value = readReply(operation, outcome.reply, {
          now: clock.now(),
          pdfMaxBytes: this.#context.pdfMaxBytes,
        });
      } catch (caught) {
        if (!isCommerceApiError(caught)) throw caught;
        error = caught as AnyApiError;
      }
    } else {
      error = errorFromFailure(
        operation.operationId,
        outcome.failure as Exclude<TransportFailure, { kind: 'aborted' }>,
      );
    }

    const status = outcome.ok ? outcome.reply.status : undefined;
    connectivity.record(
      error ? (outcomeOfError(error) ?? 'answered') : 'answered',
      operation.operationId,
      error?.code,
    );
    logger.info('api.exchange', {
      operationId: operation.operationId,
      method: prepared.method,
      route: operation.path,
      exchange,
      status: status ?? null,
      errorKind: error?.kind ?? null,
      code: error?.code ?? null,
      durationMs,
    });
    try {
      this.#context.onExchange?.({
        operationId: operation.operationId,
        method: prepared.method,
        path: prepared.path,
        exchange,
        status,
        errorKind: error?.kind,
        durationMs,
      });
    } catch (hookError) {
      logger.error('api.exchange_hook_failed', { error: hookError });
    }
    return error ? { failed: true, error } : { failed: false, value };
  }
}
