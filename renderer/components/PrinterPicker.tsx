import type { ListPrintersReply } from '../../shared/ipc/printing.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { OptionalSelect } from './OptionalSelect.tsx';
import { printerStateKeys } from './PrinterIndicator.tsx';

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
  return (
    <OptionalSelect label={label} value={value} onChange={onChange} noneLabel={defaultLabel}>
      {printers.printers.map((printer) => (
        <option key={printer.name} value={printer.name}>
          {t('printer.summary', {
            name: printer.name,
            state: t(printerStateKeys[printer.state]),
          })}
        </option>
      ))}
    </OptionalSelect>
  );
}
