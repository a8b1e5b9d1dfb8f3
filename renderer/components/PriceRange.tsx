import type { SearchHit } from '../../shared/ipc/catalog.ts';
import { useI18n } from '../i18n/use-i18n.ts';

type Range = NonNullable<SearchHit['priceRange']>;

/** The service's price range as text: one price when both ends are the same, else "min – max". */
export function PriceRange({ range }: { readonly range: Range }) {
  const { t, fmt } = useI18n();
  if (range.minInclTax === range.maxInclTax) return <>{fmt.money(range.minInclTax)}</>;
  return (
    <>{t('price.range', { min: fmt.money(range.minInclTax), max: fmt.money(range.maxInclTax) })}</>
  );
}
