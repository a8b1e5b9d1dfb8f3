import type { PrinterState } from '../../shared/ipc/printing.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { printProblemKeys } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useKiosk } from '../hooks/use-store.ts';
import { defaultPrinterOf } from '../stores/printer-store.ts';

export const printerStateKeys: Readonly<Record<PrinterState, MessageKey>> = {
  idle: 'printerState.idle',
  printing: 'printerState.printing',
  stopped: 'printerState.stopped',
};

/** The default printer's state as the print system reports it, and what holds it up. */
export function PrinterIndicator() {
  const { t } = useI18n();
  const printers = useKiosk('printers', (s) => s.printers);
  const error = useKiosk('printers', (s) => s.error);
  const printer = defaultPrinterOf(printers);

  if (!printer) {
    // A print service that does not answer is said as such, not as a printer missing.
    const down = error?.code.startsWith('PRINT_')
      ? printProblemKeys[error.code.slice('PRINT_'.length).toLowerCase()]
      : undefined;
    return (
      <span className="status-item status-warning" data-testid="printer-state">
        {down ? t(down) : t(printers || error ? 'printerState.none' : 'printerState.unknown')}
      </span>
    );
  }
  const problem = printer.reason ? printProblemKeys[printer.reason.code] : undefined;
  const bad = printer.state === 'stopped' || !printer.accepting || problem !== undefined;
  return (
    <span
      className={bad ? 'status-item status-warning' : 'status-item'}
      data-testid="printer-state"
    >
      {t('printer.summary', { name: printer.name, state: t(printerStateKeys[printer.state]) })}
      {problem && <> · {t(problem)}</>}
    </span>
  );
}
