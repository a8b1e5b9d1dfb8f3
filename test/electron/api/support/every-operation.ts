import { randomUUID } from 'node:crypto';
import type { OperationName } from '../../../../shared/api/operations.ts';
import {
  demoCustomers,
  demoGiftCards,
  demoProducts,
  demoSales,
  demoSav,
} from '../../../../sandbox/data/demo.ts';
import type { CommerceApiClient } from '../../../../electron/api/client.ts';

/**
 * Calls each of the 30 public operation methods once, with valid input taken from the sandbox's
 * demo data (and, for the ids the demo does not fix, from the list replies themselves).
 */
export async function callEveryOperation(
  client: CommerceApiClient,
): Promise<Record<OperationName, unknown>> {
  const since = new Date(Date.now() - 7 * 24 * 3600 * 1000).toISOString();
  const shops = await client.listShops();
  const characteristics = await client.listCharacteristics();
  const items = await client.listProductItemsOfProduct({
    params: { productId: demoProducts.availableEverywhere },
  });
  const shopId = shops.data[0]!.id;
  const results: Partial<Record<OperationName, unknown>> = {
    listShops: shops,
    listCharacteristics: characteristics,
    listProductItemsOfProduct: items,
  };
  results.authenticate = await client.authenticate();
  results.ping = await client.ping();
  results.listCatalogChanges = await client.listCatalogChanges({ query: { since } });
  results.listCatalogProducts = await client.listCatalogProducts({
    query: { limit: 5, shopUuid: shopId },
  });
  results.listProducts = await client.listProducts({
    query: { search: 'glacons', include: 'stock,media' },
  });
  results.getProduct = await client.getProduct({
    params: { productId: demoProducts.promoted },
    query: { include: 'items' },
  });
  results.listProductItems = await client.listProductItems({
    query: { limit: 3, availableOnly: true },
  });
  results.getProductItem = await client.getProductItem({ params: { itemId: items.data[0]!.uuid } });
  results.listCategories = await client.listCategories();
  results.listProductTypes = await client.listProductTypes({ query: { limit: 10 } });
  results.listCharacteristicValues = await client.listCharacteristicValues({
    params: { characteristicId: characteristics.data[0]!.id },
  });
  results.listCustomers = await client.listCustomers({ query: { include: 'contact', limit: 5 } });
  results.searchCustomers = await client.searchCustomers({
    query: { email: 'famille.moreau@example.com' },
  });
  results.getCustomer = await client.getCustomer({
    params: { customerId: demoCustomers.main },
    query: { include: 'contact,internalComments' },
  });
  results.replaceCustomer = await client.replaceCustomer({
    params: { customerId: demoCustomers.withoutContact },
    body: { typeCustomer: 'individual', firstName: 'Noé', lastName: 'Sansadresse' },
  });
  results.listCustomerCredits = await client.listCustomerCredits({
    params: { customerId: demoCustomers.main },
  });
  results.getCustomerHistory = await client.getCustomerHistory({
    params: { customerId: demoCustomers.main },
  });
  results.listSales = await client.listSales({ query: { customerId: demoCustomers.main } });
  results.getSale = await client.getSale({ params: { saleId: demoSales.withCredits } });
  results.getSaleInvoice = await client.getSaleInvoice({
    params: { saleId: demoSales.withInvoice },
  });
  results.downloadSaleInvoice = await client.downloadSaleInvoice({
    params: { saleId: demoSales.withInvoice },
  });
  results.listSav = await client.listSav({ query: { status: 'in_repair' } });
  results.getSav = await client.getSav({ params: { savId: demoSav.inRepair } });
  results.getSavLog = await client.getSavLog({ params: { savId: demoSav.closed } });
  results.downloadSavSlip = await client.downloadSavSlip({ params: { savId: demoSav.inRepair } });
  results.getGiftCard = await client.getGiftCard({
    params: { giftCardId: demoGiftCards.active },
    query: { include: 'customer,usages' },
  });
  results.debitGiftCard = await client.debitGiftCard({
    params: { giftCardId: demoGiftCards.active },
    headers: { 'Idempotency-Key': randomUUID() },
    body: { amount: 1, currency: 'EUR', reference: 'every-operation' },
  });
  return results as Record<OperationName, unknown>;
}
