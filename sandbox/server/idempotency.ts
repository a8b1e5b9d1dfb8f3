import type { SandboxClock } from './clock.ts';

/** The default retention of an idempotency key: 24 hours on the sandbox clock. */
export const defaultIdempotencyRetentionMs = 24 * 60 * 60 * 1000;

/** A reply as first sent, replayed byte for byte (status and body). */
export interface RecordedReply {
  readonly status: number;
  readonly body: unknown;
}

export type IdempotencyLookup =
  | { readonly kind: 'new' }
  | { readonly kind: 'replay'; readonly reply: RecordedReply }
  | { readonly kind: 'conflict'; readonly explanation: string };

interface Entry {
  readonly resourceId: string;
  readonly canonicalBody: string;
  readonly reply: RecordedReply;
  readonly at: number;
}

/**
 * Canonical text of a parsed JSON body: object keys sorted at every depth, so
 * `{"amount":5,"currency":"EUR"}` and `{"currency":"EUR","amount":5.0}` are the same body.
 * Bodies are compared as parsed JSON, never as raw bytes: whitespace, key order and number
 * spelling do not make a retry "different"; any difference in a value does.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The idempotency keys of one write operation. Keys are scoped per integration account (two
 * accounts never collide) and retained for `retentionMs` on the sandbox clock from their first
 * use, then forgotten: a key reused after that is a new write.
 */
export class IdempotencyStore {
  readonly #clock: SandboxClock;
  readonly #entries = new Map<string, Entry>();
  retentionMs: number;

  constructor(clock: SandboxClock, retentionMs = defaultIdempotencyRetentionMs) {
    this.#clock = clock;
    this.retentionMs = retentionMs;
  }

  lookup(accountId: string, key: string, resourceId: string, body: unknown): IdempotencyLookup {
    this.#purge();
    const entry = this.#entries.get(`${accountId}\u0000${key}`);
    if (!entry) return { kind: 'new' };
    if (entry.resourceId !== resourceId) {
      return {
        kind: 'conflict',
        explanation: 'this Idempotency-Key was already used for another resource',
      };
    }
    if (entry.canonicalBody !== canonicalJson(body)) {
      return {
        kind: 'conflict',
        explanation: 'this Idempotency-Key was already used with a different body',
      };
    }
    return { kind: 'replay', reply: entry.reply };
  }

  remember(
    accountId: string,
    key: string,
    resourceId: string,
    body: unknown,
    reply: RecordedReply,
  ): void {
    this.#entries.set(`${accountId}\u0000${key}`, {
      resourceId,
      canonicalBody: canonicalJson(body),
      reply,
      at: this.#clock.nowMs(),
    });
  }

  clear(): void {
    this.#entries.clear();
  }

  get size(): number {
    this.#purge();
    return this.#entries.size;
  }

  #purge(): void {
    const oldest = this.#clock.nowMs() - this.retentionMs;
    // Insertion order is first-use order and the clock never goes back: stop at the first live key.
    for (const [id, entry] of this.#entries) {
      if (entry.at > oldest) break;
      this.#entries.delete(id);
    }
  }
}
