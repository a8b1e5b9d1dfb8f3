import type { Shop } from '../../shared/api/referentials.ts';
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
  readonly shops: readonly Shop[];
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
          {shop.city && shop.city !== shop.name ? `${shop.name} (${shop.city})` : shop.name}
        </option>
      ))}
    </OptionalSelect>
  );
}
