import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { compiledSchema } from '../../../electron/api/compiled-schema.ts';
import { readReply } from '../../../electron/api/reply.ts';
import { CatalogProductsReply } from '../../../shared/api/catalog.ts';
import { notShownReplySchema } from '../../../shared/api/not-shown.ts';
import { operations } from '../../../shared/api/operations.ts';
import { catalogPage, product } from '../../shared/api/fixtures.ts';

function jsonReply(value: unknown) {
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: new TextEncoder().encode(JSON.stringify(value)),
  };
}

/** The same input through the runtime parser and the compiled one: issues are compared whole. */
function both(schema: z.ZodType, input: unknown) {
  const runtime = schema.safeParse(input);
  const compiled = compiledSchema(schema).safeParse(input);
  return { runtime, compiled };
}

describe('compiled reply schemas', () => {
  test('are compiled once per schema object', () => {
    const schema = z.strictObject({ id: z.string() });
    expect(compiledSchema(schema)).toBe(compiledSchema(schema));
    expect(compiledSchema(schema)).not.toBe(schema);
  });

  // Pins the implementation: a construct zod cannot compile makes it hand the schema back as it
  // is, silently, and the page is parsed by the runtime again (docs/performance.md's client figure).
  test('the catalogue page reply is one the compiler models', () => {
    expect(() => z.compile(CatalogProductsReply, { strict: true })).not.toThrow();
  });

  test('a valid catalogue page gives the value the runtime parser gives', () => {
    const input = catalogPage([product(), { ...product(), uuid: 'prod_0002', items: [] }]);
    const { runtime, compiled } = both(CatalogProductsReply, input);
    expect(runtime.success).toBe(true);
    expect(compiled).toEqual(runtime);
  });

  const broken: [string, (p: ReturnType<typeof product>) => unknown][] = [
    ['an unknown member deep in an item', (p) => ({ ...p, items: [{ ...p.items[0], extra: 1 }] })],
    ['a lone surrogate in an identifier', (p) => ({ ...p, uuid: '\ud800' })],
    ['a negative count', (p) => ({ ...p, availableItemsCount: -1 })],
    ['a date without an offset', (p) => ({ ...p, updatedAt: '2026-11-20T10:00:00' })],
    ['a missing member', ({ stock: _stock, ...p }) => p],
  ];
  test.each(broken)('%s is refused with the runtime parser’s issues', (_, bend) => {
    const { runtime, compiled } = both(
      CatalogProductsReply,
      catalogPage([product(), bend(product())]),
    );
    expect(runtime.success).toBe(false);
    expect(compiled.success).toBe(false);
    expect(compiled.error?.issues).toEqual(runtime.error?.issues);
  });

  test('a bad catalogue reply is still a CONTRACT_VIOLATION naming the member', () => {
    const bad = catalogPage([
      product(),
      { ...product(), media: [{ type: 'video', url: 'x', isMain: true }] },
    ]);
    expect(() =>
      readReply(operations.listCatalogProducts, jsonReply(bad), { now: 0, pdfMaxBytes: 1 }),
    ).toThrow(
      expect.objectContaining({ code: 'CONTRACT_VIOLATION', path: 'data[1].media[0].type' }),
    );
  });

  test('a reply the spec does not show keeps every member the service sent', () => {
    const schema = notShownReplySchema({ shape: 'list', identity: 'id' });
    expect(notShownReplySchema({ shape: 'list', identity: 'id' })).toBe(schema);
    const input = { data: [{ id: 'sale_1', total: { amount: 3 }, lines: [1] }], page: 2 };
    expect(compiledSchema(schema).parse(input)).toEqual(input);
    expect(compiledSchema(schema).safeParse({ data: [{ total: 1 }] }).success).toBe(false);
  });
});
