import { createApiClient, type CommerceApiClient } from '../../electron/api/client.ts';
import { createApiGateway, outboxClientRetry } from '../../electron/outbox/api-gateway.ts';
import type { DebitGateway } from '../../electron/outbox/gateway.ts';
import { startSandbox, type RunningSandbox, type SandboxControl } from '../../sandbox/index.ts';

/** The integration account every kiosk of the torture test uses (all scopes). */
export const EMAIL = 'kiosk-all@sandbox.test';

/**
 * One kiosk of a round: its own sandbox, so that its ledger and faults are its own. A sandbox
 * serves ONE seed and is closed after its checks, never reset for the next: a request a kiosk gave
 * up on (its response timeout, or its process SIGKILLed) may still be inside the sandbox, held by
 * a latency fault, and is processed when that ends. Reset for the next seed, the sandbox would
 * apply it there, with a key no row of that seed carries (seen: "the service applied key ...,
 * which no row carries" on the seed that came after one with a latency fault).
 */
export interface Slot {
  readonly sandbox: RunningSandbox;
  readonly control: SandboxControl;
  readonly client: CommerceApiClient;
  readonly gateway: DebitGateway;
  readonly password: string;
  close(): Promise<void>;
}

async function startSlot(): Promise<Slot> {
  const sandbox = await startSandbox({ port: 0, seed: 1, control: true, products: 10 });
  const account = sandbox.accounts.find((entry) => entry.email === EMAIL)!;
  const client = createApiClient({
    baseUrl: sandbox.baseUrl,
    credentials: async () => ({ email: account.email, password: account.password }),
    retry: outboxClientRetry,
  });
  return {
    sandbox,
    control: sandbox.control!,
    client,
    gateway: createApiGateway(client),
    password: account.password,
    close: async () => {
      client.close();
      await sandbox.close();
    },
  };
}

/** The sandboxes of the next round start while the current one runs. */
export class SlotPool {
  readonly #size: number;
  #next: Promise<Slot[]> | undefined;
  readonly #open = new Set<Slot>();

  constructor(size: number) {
    this.#size = size;
  }

  #start(): Promise<Slot[]> {
    const slots = Promise.all(
      Array.from({ length: this.#size }, async () => {
        const slot = await startSlot();
        this.#open.add(slot);
        return slot;
      }),
    );
    slots.catch(() => {}); // whoever takes them sees the failure
    return slots;
  }

  async take(): Promise<Slot[]> {
    const slots = this.#next ?? this.#start();
    this.#next = this.#start();
    return slots;
  }

  async release(slots: readonly Slot[]): Promise<void> {
    await Promise.all(
      slots.map(async (slot) => {
        this.#open.delete(slot);
        await slot.close();
      }),
    );
  }

  async close(): Promise<void> {
    const next = this.#next;
    this.#next = undefined;
    await next?.catch(() => {});
    await this.release([...this.#open]);
  }
}
