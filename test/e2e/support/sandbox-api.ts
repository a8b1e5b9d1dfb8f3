/**
 * Reads the sandbox the way any API client would, to learn what a journey should show: numbers
 * like a sale's depend on the sandbox's clock, so a test asks rather than hard-codes them.
 */
async function tokenOf(sandboxUrl: string): Promise<string> {
  const auth = await fetch(`${sandboxUrl}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'kiosk-all@sandbox.test', password: 'sandbox-all' }),
  });
  return ((await auth.json()) as { token: string }).token;
}

/**
 * A debit made at the service by someone else (another till), in the service's own body shape:
 * what this kiosk read of the card before it is then out of date.
 */
export async function debitElsewhere(
  sandboxUrl: string,
  giftCardId: string,
  body: Record<string, unknown>,
): Promise<void> {
  const response = await fetch(`${sandboxUrl}/v1/gift-cards/${encodeURIComponent(giftCardId)}`, {
    method: 'PUT',
    headers: {
      authorization: `Bearer ${await tokenOf(sandboxUrl)}`,
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
    },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`PUT gift card ${giftCardId}: HTTP ${response.status}`);
}

export async function readSandbox<T = Record<string, unknown>>(
  sandboxUrl: string,
  path: string,
): Promise<T> {
  const response = await fetch(`${sandboxUrl}${path}`, {
    headers: { authorization: `Bearer ${await tokenOf(sandboxUrl)}` },
  });
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
