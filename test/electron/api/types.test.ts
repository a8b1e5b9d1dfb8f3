import { expectTypeOf, test } from 'vitest';
import type { CatalogChangesReply } from '../../../shared/api/catalog.ts';
import type { ProductReference } from '../../../shared/api/products.ts';
import type { NotShownList, NotShownRecord } from '../../../shared/api/not-shown.ts';
import type { CommerceApiClient } from '../../../electron/api/client.ts';
import type { OperationInput, OperationOutput } from '../../../electron/api/operation-types.ts';
import type { PageItem, PageableOperation } from '../../../electron/api/pagination.ts';
import type { PdfDocument } from '../../../electron/api/pdf.ts';

/**
 * The public types are computed from the contract table; `tsc -b` checks this file (the runtime
 * assertions are no-ops). A wrong inference fails the typecheck, not a test run.
 */
test('inputs are z.input of the schemas, outputs z.output of the replies', () => {
  // Query values in typed or wire form.
  expectTypeOf<{ query: { limit: 100 } }>().toExtend<OperationInput<'listProducts'>>();
  expectTypeOf<{ query: { limit: '100'; availableOnly: 'true' } }>().toExtend<
    OperationInput<'listProducts'>
  >();
  expectTypeOf<{ query: { colour: 'red' } }>().not.toExtend<OperationInput<'listProducts'>>();
  // Required parts are required.
  expectTypeOf<{ query: { limit: 1 } }>().not.toExtend<OperationInput<'listCatalogChanges'>>();
  expectTypeOf<{
    params: { giftCardId: string };
    body: { amount: number; currency: 'EUR' };
  }>().not.toExtend<OperationInput<'debitGiftCard'>>();
  expectTypeOf<OperationOutput<'getProduct'>>().toEqualTypeOf<ProductReference>();
  expectTypeOf<OperationOutput<'listCatalogChanges'>>().toEqualTypeOf<CatalogChangesReply>();
  expectTypeOf<OperationOutput<'downloadSavSlip'>>().toEqualTypeOf<PdfDocument>();
  // A record the spec does not show: its identifier typed, every other member kept as unknown.
  expectTypeOf<PageItem<'listShops'>>().toEqualTypeOf<NotShownRecord<'id'>>();
  expectTypeOf<OperationOutput<'searchCustomers'>>().toEqualTypeOf<NotShownList<'uuid'>>();
  // Where the spec does not show the parameters, any name goes (the service's, from the profile).
  expectTypeOf<{ query: { pageNumber: 2 } }>().toExtend<OperationInput<'listSales'>>();
  // The debit body is the profile's: any JSON object.
  expectTypeOf<{
    params: { giftCardId: string };
    headers: { 'Idempotency-Key': string };
    body: { debit: { value: number } };
  }>().toExtend<OperationInput<'debitGiftCard'>>();
});

test('method signatures', () => {
  expectTypeOf<
    CommerceApiClient['getProduct']
  >().returns.resolves.toEqualTypeOf<ProductReference>();
  expectTypeOf<
    CommerceApiClient['downloadSaleInvoice']
  >().returns.resolves.toEqualTypeOf<PdfDocument>();
  // Input optional where nothing is required, mandatory otherwise.
  expectTypeOf<CommerceApiClient['listShops']>().toBeCallableWith();
  expectTypeOf<CommerceApiClient['listCatalogChanges']>().parameter(0).not.toBeUndefined();
  // Page walkers only take list operations with a page parameter: the SAV log and the customer
  // search are lists with page/limit in the contract, so they are walkable too.
  const pageable: PageableOperation[] = [
    'listCatalogProducts',
    'listShops',
    'listSav',
    'getSavLog',
    'searchCustomers',
  ];
  expectTypeOf<'getSavLog' | 'searchCustomers'>().toExtend<PageableOperation>();
  // @ts-expect-error a single record with a query (include=) is not a list to walk
  const history: PageableOperation = 'getCustomerHistory';
  // @ts-expect-error the change feed has its own window walker
  const changes: PageableOperation = 'listCatalogChanges';
  expectTypeOf(pageable).not.toBeAny();
  expectTypeOf([history, changes]).not.toBeAny();
});
