import { memo } from 'react';
import type { AvailabilityStatus } from '../../shared/api/catalog.ts';
import type { SearchHit } from '../../shared/ipc/catalog.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { AvailabilityBadge } from './AvailabilityBadge.tsx';
import { PriceRange } from './PriceRange.tsx';
import { productName } from './product-name.ts';
import { shopPrices } from './shop-prices.ts';

/** The statuses of the shop's items, each once, in the service's order of first appearance. */
function shopStatuses(hit: SearchHit): AvailabilityStatus[] {
  const seen = new Set<AvailabilityStatus>();
  for (const item of hit.shopItems ?? []) seen.add(item.availability.status);
  return [...seen];
}

/**
 * One search result: the whole row opens the product. Memoised: the list renders again at each
 * keystroke and each search state, and a row whose hit did not change is not redrawn.
 */
export const ProductRow = memo(function ProductRow({
  hit,
  onOpen,
}: {
  readonly hit: SearchHit;
  readonly onOpen: (productId: string) => void;
}) {
  const { t, fmt } = useI18n();
  const name = productName(hit, t);
  const statuses = shopStatuses(hit);
  // With a shop chosen, its own prices; the range across shops only when none is.
  const here =
    hit.shopItems !== null && hit.shopItems.length > 0 ? shopPrices(hit.shopItems) : null;
  const price = here ? here.price : hit.priceRange;
  const promotion = here ? here.promotion : hit.promotionPriceRange;
  return (
    <button type="button" className="product-row" onClick={() => onOpen(hit.uuid)}>
      <span className="product-row-main">
        <span className={name.named ? 'product-row-name' : 'product-row-name product-unnamed'}>
          {name.text}
        </span>
        <span className="product-row-ids">
          {[
            hit.reference && t('product.reference', { reference: hit.reference }),
            hit.ean && t('product.ean', { ean: hit.ean }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </span>
      </span>
      <span className="product-row-side">
        <span className="product-row-price">
          {promotion ? (
            <>
              <span className="price-promo">
                <PriceRange range={promotion} />
              </span>{' '}
              {price && (
                <s className="price-before">
                  <span className="visually-hidden">{t('price.before')} </span>
                  <PriceRange range={price} />
                </s>
              )}
            </>
          ) : price ? (
            <PriceRange range={price} />
          ) : (
            t('product.noPrice')
          )}
        </span>
        <span className="product-row-stock">
          {hit.shopItems === null
            ? t('product.availableItems', { count: fmt.integer(hit.availableItemsCount) })
            : statuses.length === 0
              ? hit.availableShops === null
                ? t('product.noItemsHere')
                : t(hit.availableShops === 0 ? 'product.notHereNowhere' : 'product.notHere', {
                    count: fmt.integer(hit.availableShops),
                  })
              : statuses.map((status) => <AvailabilityBadge key={status} status={status} />)}
        </span>
      </span>
    </button>
  );
});
