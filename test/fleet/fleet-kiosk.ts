import { createApiClient } from '../../electron/api/index.ts';
import { CatalogSyncService } from '../../electron/catalog/index.ts';
import {
  type OutboxService,
  outboxClientRetry,
  startOutboxService,
} from '../../electron/outbox/index.ts';
import { kioskSchema } from '../../electron/schema.ts';
import { openDatabase } from '../../electron/storage/index.ts';
import { seededRandom } from '../support/random.ts';

/**
 * One kiosk of the fleet, composed as the app composes it (`electron/kiosk/kiosk-services.ts`)
 * minus the screens and printing: its own data directory and database, one API client (one HTTP
 * attempt per debit call, the sender owns those retries), the outbox with its sender started in
 * the background and its backoff lifted when the service is seen again, the catalogue mirror
 * with its change-feed loop, and the connectivity probe.
 */

export interface FleetKioskOptions {
  readonly dataDir: string;
  readonly baseUrl: string;
  readonly email: string;
  readonly password: string;
  readonly probeMs: number;
  readonly changeFeedMs: number;
  readonly seed: number;
}

export interface AcceptedDebit {
  readonly key: string;
  readonly amount: number;
  readonly card: string;
  /** Accepted while the kiosk did not know the service to be online. */
  readonly offline: boolean;
}

export interface FinalDebit {
  readonly key: string;
  readonly state: string;
  readonly amount: number;
}

export class FleetKiosk {
  readonly #db;
  readonly #client;
  readonly #outbox: OutboxService;
  readonly #catalog: CatalogSyncService;
  readonly #options: FleetKioskOptions;

  constructor(options: FleetKioskOptions) {
    this.#options = options;
    this.#db = openDatabase({ dataDir: options.dataDir, schema: kioskSchema });
    this.#client = createApiClient({
      baseUrl: options.baseUrl,
      credentials: async () => ({ email: options.email, password: options.password }),
      retry: outboxClientRetry,
      random: seededRandom(options.seed),
    });
    this.#outbox = startOutboxService({
      db: this.#db,
      client: this.#client,
      sender: { random: seededRandom(options.seed ^ 0x5eed) },
    });
    this.#catalog = new CatalogSyncService({
      database: this.#db,
      source: this.#client,
      changeFeedIntervalMs: options.changeFeedMs,
    });
  }

  start(): void {
    this.#client.connectivity.start(this.#options.probeMs);
    void this.#client.connectivity.check();
    this.#catalog.start();
  }

  /** Called on every outbox change and every completed catalogue sync. */
  onChange(listener: () => void): void {
    this.#outbox.outbox.events.on('change', () => listener());
    this.#catalog.events.on('synced', () => listener());
  }

  debit(card: string, amount: number): AcceptedDebit {
    const { debit, connectivity } = this.#outbox.outbox.enqueue({ giftCardId: card, amount });
    return {
      key: debit.idempotencyKey,
      amount: debit.amount,
      card,
      offline: connectivity !== 'online',
    };
  }

  /** Nothing waits in the outbox and the mirror reflects the service at `sinceMs` or later. */
  inSyncSince(sinceMs: number): boolean {
    const summary = this.#outbox.outbox.summary();
    if (summary.openCount > 0) return false;
    const asOf = this.#catalog.status().asOf;
    return asOf !== null && Date.parse(asOf) >= sinceMs;
  }

  /** Sends whatever is left, for at most `timeoutMs`. */
  async drain(timeoutMs: number): Promise<string> {
    const report = await this.#outbox.sender.drain({ untilEmpty: true, timeoutMs });
    return report.result;
  }

  debits(): FinalDebit[] {
    return this.#outbox.outbox
      .list({ limit: 10_000 })
      .map((debit) => ({ key: debit.idempotencyKey, state: debit.state, amount: debit.amount }));
  }

  async close(): Promise<void> {
    this.#client.connectivity.stop();
    await Promise.allSettled([this.#catalog.stop(), this.#outbox.stop()]);
    this.#client.close();
    this.#db.close();
  }
}
