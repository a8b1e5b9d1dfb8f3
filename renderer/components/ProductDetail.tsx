import { ArrowLeft } from 'lucide-react';
import type { GetProductReply, ShopAvailability } from '../../shared/ipc/catalog.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { AnswerSourceNote } from './AnswerSourceNote.tsx';
import { ItemLine } from './ItemLine.tsx';
import { PriceRange } from './PriceRange.tsx';
import { ProductImage } from './ProductImage.tsx';
import { shopPrices } from './shop-prices.ts';
import { productName } from './product-name.ts';

const availableCount = (group: ShopAvailability) =>
  group.items.filter((item) => item.availability.available).length;

/**
 * The chosen shop first, then the kiosk's own; the others by how many items they have available,
 * then by name, so the shop with stock is never below the fold.
 */
export function orderShops(
  shops: readonly ShopAvailability[],
  shopId: string | null,
  homeShopId: string | null,
): ShopAvailability[] {
  const rank = (group: ShopAvailability) =>
    group.shop !== null && group.shop.id === shopId
      ? 0
      : group.shop !== null && group.shop.id === homeShopId
        ? 1
        : 2;
  const name = (group: ShopAvailability) => group.shop?.name ?? group.shop?.id ?? '';
  return [...shops].sort(
    (a, b) =>
      rank(a) - rank(b) || availableCount(b) - availableCount(a) || name(a).localeCompare(name(b)),
  );
}

export function ProductDetail({
  detail,
  shopId,
  homeShopId,
  onBack,
}: {
  readonly detail: GetProductReply;
  /** The shop staff chose to look at; null: every shop. */
  readonly shopId: string | null;
  /** The kiosk's own shop (its settings): the one marked "This shop". */
  readonly homeShopId: string | null;
  readonly onBack: () => void;
}) {
  const { t, fmt } = useI18n();
  const { product } = detail;
  const title = productName(product, t);
  const name = title.text;
  const groups = orderShops(detail.shops, shopId, homeShopId);
  const chosen = shopId === null ? undefined : groups.find((group) => group.shop?.id === shopId);
  const chosenShopHasItems = chosen !== undefined;
  // With a shop chosen, its own prices; the range across shops only when none is.
  const here = chosen ? shopPrices(chosen.items) : null;
  const price = here ? here.price : product.priceRange;
  const promotion = here ? here.promotion : product.promotionPriceRange;

  return (
    <article className="product-detail" aria-labelledby="product-detail-name">
      <button type="button" className="button" onClick={onBack}>
        <ArrowLeft aria-hidden="true" size={20} />
        {t('product.back')}
      </button>
      <div className="product-head">
        <ProductImage url={product.mainImage} name={name} />
        <div>
          <h2 id="product-detail-name" className={title.named ? undefined : 'product-unnamed'}>
            {name}
          </h2>
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
            <dt>
              {chosen?.shop
                ? t('product.priceIn', { shop: chosen.shop.name ?? chosen.shop.id })
                : t('product.price')}
            </dt>
            <dd data-testid="product-price">
              {price ? <PriceRange range={price} /> : t('product.noPrice')}
            </dd>
            {promotion && (
              <>
                <dt>{t('product.promotionPrice')}</dt>
                <dd className="price-promo">
                  <PriceRange range={promotion} />
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
            {group.shop !== null && group.shop.id === homeShopId && (
              <span className="badge badge-here"> {t('product.thisShop')}</span>
            )}
            <span className="shop-group-count">
              {t('product.availableHere', { count: fmt.integer(availableCount(group)) })}
            </span>
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
