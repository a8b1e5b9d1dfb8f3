import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiError } from '../../../shared/api/errors.ts';
import type { Operation } from '../../../shared/api/operation.ts';
import { operationList } from '../../../shared/api/operations.ts';
import { type Client, data, emails, startClient } from './helpers.ts';

/**
 * Every operation of the contract, for every seeded account, with valid parameters whose ids come
 * from the list routes: a 200 parses with the operation's reply schema (or is a PDF), anything
 * else parses as ApiError with a status the operation declares; and the status is the one the
 * account's scopes call for.
 */

let client: Client;
const ids: Record<string, string> = {};
const epoch = '2000-01-01T00:00:00.000Z';

beforeAll(async () => {
  client = await startClient();
  const first = async (
    path: string,
    pick: (record: Record<string, unknown>) => boolean = () => true,
  ) => {
    const reply = await client.as(emails.all, path);
    expect(reply.status, path).toBe(200);
    const found = data(reply).find(pick);
    expect(found, path).toBeDefined();
    return found!;
  };
  ids.productId = (await first('/v1/catalog/products')).uuid as string;
  ids.itemId = (await first('/v1/product-items')).uuid as string;
  ids.characteristicId = (await first('/v1/characteristics')).id as string;
  ids.customerId = (await first('/v1/customers')).uuid as string;
  ids.saleId = (await first('/v1/sales?limit=500', (sale) => sale.hasInvoice === true))
    .uuid as string;
  ids.savId = (await first('/v1/sav')).uuid as string;
  const credits = await client.as(
    emails.all,
    `/v1/customers/${ids.customerId}/credits?types=gift_card`,
  );
  const card = data<{ giftCardId: string | null }>(credits).find(
    (credit) => credit.giftCardId !== null,
  );
  ids.giftCardId = card?.giftCardId ?? 'gift_card_ddf0db2b-c468-4d07-9853-e8ef57c20a81';
  ids.email = (
    (await client.as(emails.all, `/v1/customers/${ids.customerId}?include=contact`)).body as {
      contact: { email: string };
    }
  ).contact.email;
});
afterAll(() => client.sandbox.close());

const requests: Record<
  string,
  { query?: string; body?: unknown; headers?: Record<string, string> }
> = {
  authenticate: { body: {} },
  listCatalogChanges: { query: `since=${epoch}` },
  searchCustomers: { query: 'email=$email' },
  replaceCustomer: {
    body: {
      typeCustomer: 'individual',
      firstName: 'Jeanne',
      lastName: 'Martin',
      email: 'jeanne.martin@example.com',
    },
  },
  debitGiftCard: { body: { amount: 0.01, currency: 'EUR', reference: 'sweep' } },
};

function allowed(operation: Operation, scopes: readonly string[]): boolean {
  const granted = new Set(scopes);
  return (
    operation.scopes.all.every((scope) => granted.has(scope)) &&
    (operation.scopes.anyOf === undefined ||
      operation.scopes.anyOf.some((scope) => granted.has(scope)))
  );
}

const accountEmails = Object.values(emails);

describe.each(accountEmails)('every operation as %s', (email) => {
  test.each(operationList.map((operation) => [operation.operationId, operation] as const))(
    '%s',
    async (_, operation) => {
      const account = client.sandbox.accounts.find((candidate) => candidate.email === email)!;
      const spec = requests[operation.operationId] ?? {};
      const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => ids[name] ?? name);
      const query = spec.query?.replace('$email', encodeURIComponent(ids.email ?? ''));
      const url = `${path}${query ? `?${query}` : ''}`;
      let body = spec.body;
      if (operation.operationId === 'authenticate') body = { email, password: account.password };
      const reply =
        operation.auth === 'none'
          ? await client.request(url, { method: operation.method, body })
          : await client.as(email, url, {
              method: operation.method,
              ...(body === undefined ? {} : { body }),
              headers: operation.headers
                ? { 'Idempotency-Key': `sweep-${email}-${operation.operationId}` }
                : {},
            });

      const expected = allowed(operation, account.scopes) ? 200 : 403;
      if (reply.status !== expected)
        throw new Error(
          `${operation.operationId} as ${email}: ${reply.status} ${JSON.stringify(reply.body)}`,
        );
      if (reply.status === 200) {
        if ('json' in operation.reply) {
          const parsed = operation.reply.json.safeParse(reply.body);
          if (!parsed.success) throw new Error(`${operation.operationId}: ${parsed.error.message}`);
        } else {
          expect(reply.headers.get('content-type')).toBe('application/pdf');
          expect(new TextDecoder().decode(reply.bytes.slice(0, 5))).toBe('%PDF-');
        }
      } else {
        ApiError.parse(reply.body);
        expect(operation.errors).toContain(reply.status);
      }
    },
  );
});
