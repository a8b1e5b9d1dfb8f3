import { describe, expect, test } from 'vitest';
import { operations } from '../../../shared/api/operations.ts';
import { InvalidRequest } from '../../../electron/api/errors.ts';
import { JsonText } from '../../../electron/api/json-text.ts';
import { normaliseBaseUrl, prepareRequest } from '../../../electron/api/request.ts';

const base = 'http://127.0.0.1:9';

function refusal(run: () => unknown): InvalidRequest {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequest);
    return error as InvalidRequest;
  }
  throw new Error('expected an InvalidRequest');
}

describe('request preparation', () => {
  test('the URL comes from the path template with each parameter encoded', () => {
    const prepared = prepareRequest(
      operations.getProduct,
      { params: { productId: 'a/b c?d#e' } },
      base,
    );
    expect(prepared.url).toBe(`${base}/v1/products/a%2Fb%20c%3Fd%23e`);
    expect(prepared.path).toBe('/v1/products/a%2Fb%20c%3Fd%23e');
    expect(prepared.method).toBe('GET');
    expect(prepared.headers).toEqual({ Accept: 'application/json' });
    expect(prepareRequest(operations.getProduct, { params: { productId: '..' } }, base).path).toBe(
      '/v1/products/%2E%2E',
    );
  });

  test('typed and wire-form query values give the same query string, defaults included', () => {
    const typed = prepareRequest(
      operations.listCatalogProducts,
      { query: { limit: 500, availableOnly: true } },
      base,
    );
    const wire = prepareRequest(
      operations.listCatalogProducts,
      { query: { limit: '500', availableOnly: 'true' } },
      base,
    );
    expect(typed.url).toBe(wire.url);
    expect(typed.url).toBe(
      `${base}/v1/catalog/products?page=1&limit=500&availableOnly=true&displayedOnline=true`,
    );
    const search = prepareRequest(
      operations.searchCustomers,
      { query: { email: 'a+b@x.test' } },
      base,
    );
    // Where the spec does not show the parameters, nothing is added: no guessed defaults.
    expect(search.url).toBe(`${base}/v1/customers/search?email=a%2Bb%40x.test`);
  });

  test("a query the spec does not show goes out as the caller gave it, under the caller's names", () => {
    expect(
      prepareRequest(operations.listSales, { query: { pageNumber: 2, pageSize: 20 } }, base).url,
    ).toBe(`${base}/v1/sales?pageNumber=2&pageSize=20`);
    expect(prepareRequest(operations.listProductItems, {}, base).url).toBe(
      `${base}/v1/product-items`,
    );
    // Still only values a URL can carry.
    expect(
      refusal(() => prepareRequest(operations.listSales, { query: { page: [1] } }, base)).issues[0]
        ?.path,
    ).toBe('query.page');
  });

  test('a debit body the spec does not show: any JSON object, exactly as given', () => {
    const prepared = prepareRequest(
      operations.debitGiftCard,
      {
        params: { giftCardId: 'g' },
        headers: { 'Idempotency-Key': 'k-1' },
        body: { debit: { value: 4.5 }, memo: 'till-1' },
      },
      base,
    );
    expect(prepared.body).toBe('{"debit":{"value":4.5},"memo":"till-1"}');
    expect(
      refusal(() =>
        prepareRequest(
          operations.debitGiftCard,
          { params: { giftCardId: 'g' }, headers: { 'Idempotency-Key': 'k-1' }, body: [1] },
          base,
        ),
      ).issues[0]?.path,
    ).toBe('body');
  });

  test('a body already serialised goes out as those bytes, checked against the schema first', () => {
    const text = '{ "amount": 2.50, "currency": "EUR" }';
    const prepared = prepareRequest(
      operations.debitGiftCard,
      {
        params: { giftCardId: 'g' },
        headers: { 'Idempotency-Key': 'k-1' },
        body: new JsonText(text),
      },
      base,
    );
    // Parsed and stringified again it would be {"amount":2.5,"currency":"EUR"}.
    expect(prepared.body).toBe(text);
    for (const bad of ['{"amount":', '[1]']) {
      const error = refusal(() =>
        prepareRequest(
          operations.debitGiftCard,
          {
            params: { giftCardId: 'g' },
            headers: { 'Idempotency-Key': 'k-1' },
            body: new JsonText(bad),
          },
          base,
        ),
      );
      expect(error.issues[0]?.path, bad).toBe('body');
    }
  });

  test('the debit body is serialised once with the caller key in the header', () => {
    const prepared = prepareRequest(
      operations.debitGiftCard,
      {
        params: { giftCardId: 'gift_card_1' },
        headers: { 'Idempotency-Key': 'k-1' },
        body: { amount: 12.5, currency: 'EUR' },
      },
      base,
    );
    expect(prepared.method).toBe('PUT');
    expect(prepared.body).toBe('{"amount":12.5,"currency":"EUR"}');
    expect(prepared.headers).toEqual({
      Accept: 'application/json',
      'Idempotency-Key': 'k-1',
      'Content-Type': 'application/json',
    });
  });

  test('PDF operations ask for a PDF', () => {
    const prepared = prepareRequest(
      operations.downloadSavSlip,
      { params: { savId: 'sav_1' } },
      base,
    );
    expect(prepared.expects).toBe('pdf');
    expect(prepared.headers['Accept']).toBe('application/pdf');
  });

  test('strict schemas refuse unknown, missing and malformed members with their path', () => {
    expect(
      refusal(() => prepareRequest(operations.listProducts, { query: { colour: 'red' } }, base))
        .issues,
    ).toEqual([{ path: 'query.colour', message: expect.stringMatching(/nrecognized/) }]);
    expect(
      refusal(() => prepareRequest(operations.listProducts, { query: { limit: 501 } }, base))
        .issues[0]?.path,
    ).toBe('query.limit');
    expect(
      refusal(() =>
        prepareRequest(operations.listProducts, { query: { availableOnly: 'yes' } }, base),
      ).issues[0]?.path,
    ).toBe('query.availableOnly');
    expect(
      refusal(() =>
        prepareRequest(operations.listProducts, { query: { include: 'stock, media' } }, base),
      ).issues[0]?.path,
    ).toBe('query.include');
    expect(refusal(() => prepareRequest(operations.getProduct, {}, base)).issues[0]?.path).toBe(
      'params',
    );
    expect(
      refusal(() => prepareRequest(operations.getProduct, { params: { productId: '' } }, base))
        .issues[0]?.path,
    ).toBe('params.productId');
    const debit = refusal(() =>
      prepareRequest(
        operations.debitGiftCard,
        { params: { giftCardId: 'g' }, body: { amount: 1.234, currency: 'EUR' } },
        base,
      ),
    );
    expect(debit.issues.map((issue) => issue.path)).toEqual(['headers.Idempotency-Key']);
    expect(debit.local).toBe(true);
    expect(debit.status).toBeUndefined();
    expect(debit.code).toBe('INVALID_REQUEST');
    expect(debit.operationId).toBe('debitGiftCard');
    expect(
      refusal(() => prepareRequest(operations.listCatalogChanges, {}, base)).issues[0]?.path,
    ).toBe('query.since');
  });

  test('input members the operation does not take are refused', () => {
    expect(
      refusal(() => prepareRequest(operations.ping, { query: { page: 1 } }, base)).explanation,
    ).toMatch(/ping takes no query/);
    expect(
      refusal(() => prepareRequest(operations.ping, { path: '/v1/anything' }, base)).issues[0]
        ?.path,
    ).toBe('path');
    expect(refusal(() => prepareRequest(operations.ping, 'x', base)).issues[0]?.path).toBe('');
  });

  test('header values must be visible ASCII', () => {
    const injected = refusal(() =>
      prepareRequest(
        operations.debitGiftCard,
        {
          params: { giftCardId: 'g' },
          headers: { 'Idempotency-Key': 'k\r\nX-Evil: 1' },
          body: { amount: 1, currency: 'EUR' },
        },
        base,
      ),
    );
    expect(injected.issues[0]?.path).toBe('headers.Idempotency-Key');
  });

  test('base URLs are normalised and checked', () => {
    expect(normaliseBaseUrl('https://api.example.test/')).toBe('https://api.example.test');
    expect(normaliseBaseUrl('http://127.0.0.1:8080/prefix//')).toBe('http://127.0.0.1:8080/prefix');
    expect(() => normaliseBaseUrl('ftp://x')).toThrow(/http/);
    expect(() => normaliseBaseUrl('https://u:p@x')).toThrow(/credentials/);
    expect(() => normaliseBaseUrl('https://x/?a=1')).toThrow(/query/);
    expect(() => normaliseBaseUrl('nope')).toThrow(/not a URL/);
  });
});
