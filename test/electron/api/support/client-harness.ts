import { operationList } from '../../../../shared/api/operations.ts';
import type { Operation } from '../../../../shared/api/operation.ts';
import { type ApiClientOptions, CommerceApiClient } from '../../../../electron/api/client.ts';
import type { ExchangeEvent } from '../../../../electron/api/invoke.ts';
import { createRedactingLogger } from '../../../../electron/logging/redacting-logger.ts';
import { FakeClock } from './fake-clock.ts';

export interface Harness {
  readonly client: CommerceApiClient;
  readonly clock: FakeClock;
  /** Every HTTP exchange the client made, retries included. */
  readonly exchanges: ExchangeEvent[];
  /** Every log line the client wrote, at debug level. */
  readonly logLines: string[];
  count(operationId: string): number;
}

/**
 * A client instrumented from the outside: its exchange hook records every request it sends, its
 * logger every line. Retries sleep on a fake clock (delays recorded, not waited), jitter is 0.5.
 */
export function instrumentedClient(
  baseUrl: string,
  account: { readonly email: string; readonly password: string },
  options: Partial<ApiClientOptions> & { readonly fakeClock?: FakeClock } = {},
): Harness {
  const exchanges: ExchangeEvent[] = [];
  const logLines: string[] = [];
  const clock = options.fakeClock ?? new FakeClock(Date.now());
  const client = new CommerceApiClient({
    baseUrl,
    credentials: async () => ({ email: account.email, password: account.password }),
    clock,
    random: () => 0.5,
    logger: createRedactingLogger({ sink: (line) => logLines.push(line), level: 'debug' }),
    onExchange: (event) => exchanges.push(event),
    ...options,
  });
  return {
    client,
    clock,
    exchanges,
    logLines,
    count: (operationId) => exchanges.filter((event) => event.operationId === operationId).length,
  };
}

const templates = operationList.map((operation) => ({
  operation,
  pattern: new RegExp(`^${operation.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
  literalLength: operation.path.replace(/\{[^}]+\}/g, '').length,
}));

/**
 * The contract operation a request addresses, matched on the wire form alone (method and path),
 * the most literal template first (`/v1/customers/search` before `/v1/customers/{customerId}`).
 */
export function operationOfRequest(method: string, path: string): Operation | undefined {
  return templates
    .filter((entry) => entry.operation.method === method && entry.pattern.test(path))
    .sort((a, b) => b.literalLength - a.literalLength)[0]?.operation;
}
