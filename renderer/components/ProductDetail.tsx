import type { GetProductReply, ShopAvailability } from '../../shared/ipc/catalog.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { AnswerSourceNote } from './AnswerSourceNote.tsx';
import { ItemLine } from './ItemLine.tsx';
import { PriceRange } from './PriceRange.tsx';
import { ProductImage } from './ProductImage.tsx';

/** The chosen shop first, then the others in the service's order. */
function orderShops(shops: readonly ShopAvailability[], shopId: string | null): ShopAvailability[] {
  if (shopId === null) return [...shops];
  const mine = shops.filter((group) => group.shop?.id === shopId);
  return [...mine, ...shops.filter((group) => group.shop?.id !== shopId)];
}

export function ProductDetail({
  detail,
  shopId,
  onBack,
}: {
  readonly detail: GetProductReply;
  readonly shopId: string | null;
  readonly onBack: () => void;
}) {
  const { t } = useI18n();
  const { product } = detail;
  const name = product.name ?? t('product.noName');
  const groups = orderShops(detail.shops, shopId);
  const chosenShopHasItems = shopId !== null && groups[0]?.shop?.id === shopId;

  return (
    <article className="product-detail" aria-labelledby="product-detail-name">
      <button type="button" className="button" onClick={onBack}>
        <span aria-hidden="true">← </span>
        {t('product.back')}
      </button>
      <div className="product-head">
        <ProductImage url={product.mainImage} name={name} />
        <div>
          <h2 id="product-detail-name">{name}</h2>
          <p className="product-ids">
            {[
              product.reference && t('product.reference', { reference: product.reference }),
              product.ean && t('product.ean', { ean: product.ean }),
              product.category?.label,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          <dl className="facts">
            <dt>{t('product.price')}</dt>
            <dd>
              {product.priceRange ? (
                <PriceRange range={product.priceRange} />
              ) : (
                t('product.noPrice')
              )}
            </dd>
            {product.promotionPriceRange && (
              <>
                <dt>{t('product.promotionPrice')}</dt>
                <dd className="price-promo">
                  <PriceRange range={product.promotionPriceRange} />
                </dd>
              </>
            )}
            <dt>{t('product.stock')}</dt>
            <dd>
              {product.stock === null
                ? t('product.stockUnknown')
                : product.stock.available
                  ? t('product.stockAvailable')
                  : t('product.stockUnavailable')}
            </dd>
          </dl>
          <AnswerSourceNote meta={detail} />
        </div>
      </div>
      {product.description && <p className="product-description">{product.description}</p>}

      <h3>{t('product.byShop')}</h3>
      {shopId !== null && !chosenShopHasItems && <p>{t('product.noItemsInChosenShop')}</p>}
      {groups.length === 0 && <p>{t('product.noItems')}</p>}
      {groups.map((group) => (
        <section
          key={group.shop?.id ?? 'warehouse'}
          className={group.shop?.id === shopId ? 'shop-group shop-group-chosen' : 'shop-group'}
          aria-label={group.shop ? (group.shop.name ?? group.shop.id) : t('product.warehouse')}
          data-testid="shop-group"
        >
          <h4>
            {group.shop ? (group.shop.name ?? group.shop.id) : t('product.warehouse')}
            {group.shop?.city && group.shop.city !== group.shop.name && ` (${group.shop.city})`}
            {group.shop?.id === shopId && (
              <span className="badge badge-here"> {t('product.thisShop')}</span>
            )}
          </h4>
          <ul className="item-list">
            {group.items.map((item) => (
              <ItemLine key={item.uuid} item={item} />
            ))}
          </ul>
        </section>
      ))}
    </article>
  );
}
