import type { ShopAvailability } from '../../shared/ipc/catalog.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { AvailabilityBadge } from './AvailabilityBadge.tsx';

type Item = ShopAvailability['items'][number];

/** One physical item: its status, price and promotion price, quantity, as the service gave them. */
export function ItemLine({ item }: { readonly item: Item }) {
  const { t, fmt } = useI18n();
  const price = item.price.inclTax;
  const promotion = item.promotionPrice?.inclTax ?? null;
  return (
    <li className="item-line" data-testid="item-line">
      <AvailabilityBadge status={item.availability.status} />
      <span className="item-code">
        {item.code ? t('item.code', { code: item.code }) : t('item.noCode')}
      </span>
      <span className="item-price">
        {promotion !== null ? (
          <>
            <span className="price-promo">
              {t('item.promotion', { price: fmt.money(promotion) })}
            </span>{' '}
            {price !== null && (
              <s className="price-before">
                <span className="visually-hidden">{t('price.before')} </span>
                {fmt.money(price)}
              </s>
            )}
          </>
        ) : price !== null ? (
          fmt.money(price)
        ) : (
          t('product.noPrice')
        )}
      </span>
      {item.quantity !== null && (
        <span className="item-quantity">
          {t('item.quantity', { quantity: fmt.integer(item.quantity) })}
        </span>
      )}
      {item.availability.reason && (
        <span className="item-reason">
          {t('item.reason', { reason: item.availability.reason })}
        </span>
      )}
      {item.inStockDate && (
        <span className="item-date">
          {t('item.inStockDate', { date: formatLoose(item.inStockDate, fmt) })}
        </span>
      )}
    </li>
  );
}

/** `inStockDate` is a date or a date-time (the spec says "string"): format what it is. */
function formatLoose(
  value: string,
  fmt: { date(v: string): string; dateTime(v: string): string },
): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? fmt.date(value) : fmt.dateTime(value);
}
