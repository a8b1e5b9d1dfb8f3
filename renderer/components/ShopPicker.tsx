import { useId } from 'react';
import type { Shop } from '../../shared/api/referentials.ts';
import { useI18n } from '../i18n/use-i18n.ts';

/** Value of the "every shop" option: shop ids are never empty, so it cannot clash with one. */
const ALL = '';

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
  const id = useId();
  const known = value === null || shops.some((shop) => shop.id === value);
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        className="select"
        value={value ?? ALL}
        onChange={(event) => onChange(event.target.value === ALL ? null : event.target.value)}
      >
        {allLabel !== undefined && <option value={ALL}>{allLabel}</option>}
        {!known && value !== null && (
          <option value={value}>{t('shop.unknown', { id: value })}</option>
        )}
        {shops.map((shop) => (
          <option key={shop.id} value={shop.id}>
            {shop.city && shop.city !== shop.name ? `${shop.name} (${shop.city})` : shop.name}
          </option>
        ))}
      </select>
    </div>
  );
}
