import { useId } from 'react';
import type { ListPrintersReply } from '../../shared/ipc/printing.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { printerStateKeys } from './PrinterIndicator.tsx';

/** Value of the "kiosk default" option: printer names never are empty. */
const DEFAULT = '';

export function PrinterPicker({
  label,
  printers,
  value,
  onChange,
  defaultLabel,
}: {
  readonly label: string;
  readonly printers: ListPrintersReply;
  readonly value: string | null;
  readonly onChange: (printer: string | null) => void;
  readonly defaultLabel: string;
}) {
  const { t } = useI18n();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <select
        id={id}
        className="select"
        value={value ?? DEFAULT}
        onChange={(event) => onChange(event.target.value === DEFAULT ? null : event.target.value)}
      >
        <option value={DEFAULT}>{defaultLabel}</option>
        {printers.printers.map((printer) => (
          <option key={printer.name} value={printer.name}>
            {t('printer.summary', {
              name: printer.name,
              state: t(printerStateKeys[printer.state]),
            })}
          </option>
        ))}
      </select>
    </div>
  );
}
