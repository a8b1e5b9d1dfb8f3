import { readFileSync } from 'node:fs';
import { compileErrors, dereference, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoCustomers, demoGiftCards, demoSales, demoSav } from '../../../sandbox/data/demo.ts';
import { alternateOpenApiText } from '../../../sandbox/dialects/alternate-openapi.ts';
import { type Client, emails, startClient } from '../server/helpers.ts';

/** `sandbox/dialects/alternate.openapi.json`: the vendor contract of the alternate dialect. */

const fileUrl = new URL('../../../sandbox/dialects/alternate.openapi.json', import.meta.url);
const committed = readFileSync(fileUrl, 'utf8');
const documentOf = () => JSON.parse(committed) as Record<string, unknown>;

type SchemaNode = { properties?: Record<string, SchemaNode>; required?: string[] };
type Dereferenced = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { name: string; in: string }[];
        requestBody?: { content: { 'application/json': { schema: SchemaNode } } };
        responses: Record<string, { content?: { 'application/json'?: { schema: SchemaNode } } }>;
      }
    >
  >;
};

let client: Client;
beforeAll(async () => {
  client = await startClient({ dialect: 'alternate' });
});
afterAll(() => client.sandbox.close());

describe('alternate.openapi.json', () => {
  test('is the builder output (run `node build/write-alternate-openapi.ts` when stale)', () => {
    // Compared as JSON: the file is formatted by prettier like every other.
    expect(JSON.parse(committed)).toEqual(JSON.parse(alternateOpenApiText()));
  });

  test('is a valid OpenAPI 3.0.3 document, contract version 1.0.0', async () => {
    const document = documentOf();
    expect(document['openapi']).toBe('3.0.3');
    expect((document['info'] as { version: string }).version).toBe('1.0.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(committed).not.toContain('x-assumption');
  });

  test('describes the parameters and the debit body the dialect takes', async () => {
    const api = (await dereference(
      structuredClone(documentOf()) as never,
    )) as unknown as Dereferenced;
    const names = (path: string) =>
      (api.paths[path]?.['get']?.parameters ?? []).map((parameter) => parameter.name);
    expect(names('/v1/shops')).toEqual(['pageNumber', 'pageSize']);
    expect(names('/v1/customers/search')).not.toContain('page');
    expect(names('/v1/customers/search')).toEqual(expect.arrayContaining(['email', 'matchMode']));
    expect(names('/v1/sav/{savId}/log')).toEqual(['savId']);
    expect(names('/v1/product-items')).not.toContain('availableOnly');
    expect(names('/v1/products')).toEqual(
      expect.arrayContaining(['page', 'limit', 'availableOnly']),
    );
    const debit = api.paths['/v1/gift-cards/{giftCardId}']?.['put'];
    const body = debit?.requestBody?.content['application/json'].schema;
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(['debit', 'memo', 'storeId']);
    expect(body?.properties?.['debit']?.properties).toHaveProperty('value');
  });

  test.each([
    ['/v1/gift-cards/{giftCardId}', `/v1/gift-cards/${demoGiftCards.active}?include=usages`],
    ['/v1/sales/{saleId}', `/v1/sales/${demoSales.withInvoice}`],
    ['/v1/sales/{saleId}/invoice', `/v1/sales/${demoSales.withInvoice}/invoice`],
    ['/v1/sav/{savId}', `/v1/sav/${demoSav.inRepair}`],
    ['/v1/customers/{customerId}', `/v1/customers/${demoCustomers.main}?include=contact`],
    ['/v1/ping', '/v1/ping'],
  ])('%s: every field of a real reply is in the documented schema', async (template, path) => {
    const api = (await dereference(
      structuredClone(documentOf()) as never,
    )) as unknown as Dereferenced;
    const schema =
      api.paths[template]?.['get']?.responses['200']?.content?.['application/json']?.schema;
    const reply = await client.as(emails.all, path);
    expect(reply.status).toBe(200);
    const record = reply.body as Record<string, unknown>;
    const documented = Object.keys(schema?.properties ?? {});
    expect(documented).toEqual(expect.arrayContaining(Object.keys(record)));
    for (const required of schema?.required ?? []) expect(record).toHaveProperty(required);
  });
});
