/**
 * The sandbox's control surface over HTTP (`--control`), as a person would drive it with curl:
 * arm faults, clear them, read the ledger of applied gift-card debits.
 */
export interface FaultSpec {
  readonly kind:
    'latency' | 'rate-limit' | 'internal-error' | 'unavailable' | 'reset' | 'commit-then-reset';
  readonly route?: string;
  readonly method?: 'GET' | 'PUT' | 'POST';
  readonly count?: number;
  /** For `latency`: how long the request is held before it goes on. */
  readonly latencyMs?: number;
}

export interface LedgerDebit {
  readonly giftCardId: string;
  readonly usageId: string;
  readonly amount: number;
  readonly idempotencyKey: string;
  readonly reference: string | null;
  readonly balanceAfter: number;
}

async function control(
  sandboxUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<unknown> {
  const response = await fetch(`${sandboxUrl}/__sandbox/${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(
      `${method} /__sandbox/${path}: HTTP ${response.status} ${await response.text()}`,
    );
  return response.json();
}

export const addFault = (sandboxUrl: string, fault: FaultSpec) =>
  control(sandboxUrl, 'POST', 'faults', fault);
export const clearFaults = (sandboxUrl: string) => control(sandboxUrl, 'DELETE', 'faults');

export async function ledger(sandboxUrl: string, giftCardId: string): Promise<LedgerDebit[]> {
  const reply = (await control(
    sandboxUrl,
    'GET',
    `ledger?giftCardId=${encodeURIComponent(giftCardId)}`,
  )) as {
    debits: LedgerDebit[];
  };
  return reply.debits;
}
