import type { ConnectivityState } from '../../shared/ipc/gift-cards.ts';
import type { Logger } from '../logging/index.ts';
import { type AnyApiError, isCommerceApiError } from './errors.ts';
import { TypedEmitter } from '../foundation/index.ts';

/** How one exchange went, from the network's point of view (not the business answer's). */
export type ExchangeOutcome = 'answered' | 'struggling' | 'unreachable';

export interface ConnectivityChange {
  readonly from: ConnectivityState;
  readonly to: ConnectivityState;
  /** `health` for a probe, else the operationId whose outcome moved the state. */
  readonly source: string;
  /** The error code behind the change, or `OK`. */
  readonly detail: string;
  readonly at: string;
}

export interface ConnectivityEvents extends Record<string, unknown> {
  change: ConnectivityChange;
}

export interface ConnectivityOptions {
  /** The health check (`client.health()`); any rejection counts as a failed probe. */
  readonly probe: () => Promise<unknown>;
  readonly now: () => number;
  readonly offlineAfter?: number;
  readonly logger: Logger;
}

/** Undefined for failures that say nothing about the network (a request refused locally). */
export function outcomeOfError(error: unknown): ExchangeOutcome | undefined {
  if (!isCommerceApiError(error)) return undefined;
  const typed = error as AnyApiError;
  switch (typed.kind) {
    case 'NetworkError':
    case 'Timeout':
      return 'unreachable';
    case 'RateLimited':
    case 'InternalError':
    case 'ServiceUnavailable':
    case 'ContractViolation':
      return 'struggling';
    case 'InvalidRequest':
      return typed.local ? undefined : 'answered';
    case 'CredentialsRejected':
      return typed.status === undefined ? undefined : 'answered';
    default:
      return 'answered';
  }
}

export class ConnectivityMonitor {
  readonly #options: ConnectivityOptions;
  readonly #offlineAfter: number;
  readonly #emitter = new TypedEmitter<ConnectivityEvents>((error) =>
    this.#options.logger.error('api.connectivity.listener_failed', { error }),
  );
  #state: ConnectivityState = 'online';
  #unreachableInARow = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #checking: Promise<ConnectivityState> | undefined;

  constructor(options: ConnectivityOptions) {
    this.#options = options;
    this.#offlineAfter = Math.max(1, options.offlineAfter ?? 2);
  }

  /**
   * What staff see in the corner of the screen, and what the outbox reads to decide whether to try:
   * - `online`: the service answers normally;
   * - `degraded`: it answers, but with 429/5xx or garbage, or one request just failed to reach it;
   * - `offline`: `offlineAfter` consecutive attempts could not reach it.
   */
  get state(): ConnectivityState {
    return this.#state;
  }

  on<K extends keyof ConnectivityEvents>(
    event: K,
    listener: (value: ConnectivityEvents[K]) => void,
  ): () => void {
    return this.#emitter.on(event, listener);
  }

  record(outcome: ExchangeOutcome, source: string, detail = 'OK'): void {
    let next: ConnectivityState;
    if (outcome === 'unreachable') {
      this.#unreachableInARow += 1;
      next = this.#unreachableInARow >= this.#offlineAfter ? 'offline' : 'degraded';
    } else {
      this.#unreachableInARow = 0;
      next = outcome === 'answered' ? 'online' : 'degraded';
    }
    if (next === this.#state) return;
    const change: ConnectivityChange = {
      from: this.#state,
      to: next,
      source,
      detail,
      at: new Date(this.#options.now()).toISOString(),
    };
    this.#state = next;
    this.#options.logger.info('api.connectivity.change', { ...change });
    this.#emitter.emit('change', change);
  }

  /** Runs one probe (joining one in flight) and returns the resulting state. */
  check(): Promise<ConnectivityState> {
    if (this.#checking) return this.#checking;
    const run = this.#probeOnce();
    this.#checking = run;
    const settle = () => {
      if (this.#checking === run) this.#checking = undefined;
    };
    run.then(settle, settle);
    return run;
  }

  async #probeOnce(): Promise<ConnectivityState> {
    try {
      await this.#options.probe();
      this.record('answered', 'health');
    } catch (error) {
      this.record(
        outcomeOfError(error) ?? 'struggling',
        'health',
        isCommerceApiError(error) ? error.code : 'UNKNOWN',
      );
    }
    return this.#state;
  }

  /** Probes every `intervalMs` until `stop()`; the timer does not keep the process alive. */
  start(intervalMs: number): void {
    this.stop();
    this.#timer = setInterval(() => void this.check(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
