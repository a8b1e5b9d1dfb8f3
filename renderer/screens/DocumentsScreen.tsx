import { MAX_COPIES } from '../../shared/ipc/printing.ts';
import { DayReport } from '../components/DayReport.tsx';
import { DocumentChooser } from '../components/DocumentChooser.tsx';
import { documentKindKeys } from '../components/document-kind.ts';
import { DocumentPreview } from '../components/DocumentPreview.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { PrinterPicker } from '../components/PrinterPicker.tsx';
import { PrintJobProgress } from '../components/PrintJobProgress.tsx';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useStores } from '../stores/stores-context.tsx';
import { Busy } from '../components/Busy.tsx';

export function DocumentsScreen() {
  const { t, fmt } = useI18n();
  const { documents } = useStores();
  const document = useKiosk('documents', (s) => s.document);
  const lookup = useKiosk('documents', (s) => s.lookup);
  const noInvoice = useKiosk('documents', (s) => s.noInvoice);
  const preview = useKiosk('documents', (s) => s.preview);
  const previewLoading = useKiosk('documents', (s) => s.previewLoading);
  const previewError = useKiosk('documents', (s) => s.previewError);
  const printer = useKiosk('documents', (s) => s.printer);
  const copies = useKiosk('documents', (s) => s.copies);
  const printing = useKiosk('documents', (s) => s.printing);
  const jobId = useKiosk('documents', (s) => s.jobId);
  const printError = useKiosk('documents', (s) => s.printError);
  const printers = useKiosk('printers', (s) => s.printers);
  const printersError = useKiosk('printers', (s) => s.error);
  const job = useKiosk('printers', (s) => (jobId === null ? null : (s.jobs[jobId] ?? null)));

  const number = preview?.documentNumber ?? document?.number ?? document?.reference ?? '';
  const title = !document
    ? ''
    : noInvoice
      ? t('sale.title', { number })
      : t('documents.heading', { kind: t(documentKindKeys[document.kind]), number });

  return (
    <section className="screen documents" aria-labelledby="documents-title">
      <h1 id="documents-title">{t('documents.title')}</h1>
      {!document && <p className="hint">{t('documents.none')}</p>}
      <DocumentChooser onFind={(next) => void documents.getState().find(next)} />
      {lookup?.phase === 'finding' && (
        <Busy>{t('documents.finding', { number: lookup.number })}</Busy>
      )}
      {lookup?.phase === 'none' && (
        <div className="notice notice-info" role="status" data-testid="document-not-found">
          <p>{t('documents.notFound', { number: lookup.number })}</p>
          {!lookup.complete && <p>{t('documents.notFoundPartial')}</p>}
        </div>
      )}
      {lookup?.phase === 'failed' && (
        <ErrorNotice
          error={lookup.error}
          onRetry={() => void documents.getState().find(lookup.number)}
        />
      )}
      {document && (
        <div className="document-columns">
          <section className="document-view" aria-labelledby="document-heading">
            <h2 id="document-heading" data-testid="document-heading">
              {title}
            </h2>
            {previewLoading && <Busy>{t('documents.loadingPreview')}</Busy>}
            {noInvoice && (
              <p className="notice notice-info" role="status" data-testid="document-no-invoice">
                {t('documents.noInvoiceYet', { number })}
              </p>
            )}
            {previewError && (
              <ErrorNotice
                error={previewError}
                onRetry={() => void documents.getState().open(document)}
              />
            )}
            {preview && <DocumentPreview preview={preview} title={title} />}
          </section>
          {/* Nothing to print: no printer, copies or Print beside "no invoice yet". */}
          {!noInvoice && (
            <section className="print-panel" aria-label={t('documents.printPanel')}>
              {printers && (
                <PrinterPicker
                  label={t('documents.printer')}
                  printers={printers}
                  value={printer}
                  defaultLabel={
                    printers.defaultPrinter
                      ? t('documents.defaultPrinter', { name: printers.defaultPrinter })
                      : t('documents.systemDefault')
                  }
                  onChange={(next) => documents.getState().choosePrinter(next)}
                />
              )}
              {printersError && <ErrorNotice error={printersError} />}
              <div className="field">
                <span className="field-label" id="copies-label">
                  {t('documents.copies')}
                </span>
                <div className="stepper" role="group" aria-labelledby="copies-label">
                  <button
                    type="button"
                    className="button"
                    aria-label={t('documents.fewer')}
                    disabled={copies <= 1}
                    onClick={() => documents.getState().setCopies(copies - 1)}
                  >
                    −
                  </button>
                  <output className="stepper-value" aria-live="polite">
                    {fmt.integer(copies)}
                  </output>
                  <button
                    type="button"
                    className="button"
                    aria-label={t('documents.more')}
                    disabled={copies >= MAX_COPIES}
                    onClick={() => documents.getState().setCopies(copies + 1)}
                  >
                    +
                  </button>
                </div>
              </div>
              <button
                type="button"
                className="button button-primary button-large"
                // Only what the preview showed is printed: not before it loads, nor when it failed.
                disabled={printing || preview === null}
                onClick={() => void documents.getState().print()}
              >
                {t('documents.print')}
              </button>
              {printError && <ErrorNotice error={printError} />}
              {job && (
                <PrintJobProgress
                  job={job}
                  onCancel={() => void documents.getState().cancelJob()}
                  onRetry={() => void documents.getState().printAgain()}
                  printers={printers?.printers ?? []}
                  onPrintOn={(next) => void documents.getState().printAgain(next)}
                />
              )}
            </section>
          )}
        </div>
      )}
      <DayReport />
    </section>
  );
}
