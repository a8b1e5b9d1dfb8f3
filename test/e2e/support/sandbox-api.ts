/**
 * Reads the sandbox the way any API client would, to learn what a journey should show: numbers
 * like a sale's depend on the sandbox's clock, so a test asks rather than hard-codes them.
 */
export async function readSandbox<T = Record<string, unknown>>(
  sandboxUrl: string,
  path: string,
): Promise<T> {
  const auth = await fetch(`${sandboxUrl}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'kiosk-all@sandbox.test', password: 'sandbox-all' }),
  });
  const { token } = (await auth.json()) as { token: string };
  const response = await fetch(`${sandboxUrl}${path}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
