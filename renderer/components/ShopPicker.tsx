import type { ShopEntry } from '../../shared/ipc/records.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { OptionalSelect } from './OptionalSelect.tsx';

export function ShopPicker({
  label,
  shops,
  value,
  onChange,
  allLabel,
}: {
  readonly label: string;
  readonly shops: readonly ShopEntry[];
  readonly value: string | null;
  readonly onChange: (shopId: string | null) => void;
  /** The option for "no shop" (every shop, or none), when it is allowed. */
  readonly allLabel?: string;
}) {
  const { t } = useI18n();
  const known = value === null || shops.some((shop) => shop.id === value);
  return (
    <OptionalSelect label={label} value={value} onChange={onChange} noneLabel={allLabel}>
      {!known && value !== null && (
        <option value={value}>{t('shop.unknown', { id: value })}</option>
      )}
      {shops.map((shop) => (
        <option key={shop.id} value={shop.id}>
          {shopLabel(shop)}
        </option>
      ))}
    </OptionalSelect>
  );
}

/** A shop as staff know it: its name (and city), or its id when the service gave no name. */
export function shopLabel(shop: ShopEntry): string {
  const name = shop.name ?? shop.shortName ?? shop.id;
  return shop.city && shop.city !== name ? `${name} (${shop.city})` : name;
}
