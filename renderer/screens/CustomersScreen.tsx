import { useEffect } from 'react';
import { CustomerDetail } from '../components/CustomerDetail.tsx';
import { CustomerHistory } from '../components/CustomerHistory.tsx';
import { CustomerMatches } from '../components/CustomerMatches.tsx';
import { CustomerSearchForm } from '../components/CustomerSearchForm.tsx';
import { criterionLabels } from '../components/criterion-labels.ts';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { secondCriteria } from '../stores/customer-store.ts';
import type { DocumentRef } from '../stores/document-store.ts';
import { useStores } from '../stores/stores-context.tsx';
import { Busy } from '../components/Busy.tsx';

export function CustomersScreen() {
  const { t } = useI18n();
  const { customers, documents, giftCard, navigation } = useStores();
  const phase = useKiosk('customers', (s) => s.phase);
  const taken = useKiosk('customers', (s) => s.taken);
  const mismatch = useKiosk('customers', (s) => s.mismatch);
  const criteria = useKiosk('customers', (s) => s.criteria);
  const confirming = useKiosk('customers', (s) => s.confirming);
  const matches = useKiosk('customers', (s) => s.matches);
  const moreMatches = useKiosk('customers', (s) => s.moreMatches);
  const error = useKiosk('customers', (s) => s.error);
  const customer = useKiosk('customers', (s) => s.customer);
  const history = useKiosk('customers', (s) => s.history);
  const historyError = useKiosk('customers', (s) => s.historyError);
  const invoices = useKiosk('customers', (s) => s.invoices);
  const credits = useKiosk('customers', (s) => s.credits);
  const creditsError = useKiosk('customers', (s) => s.creditsError);
  const savLog = useKiosk('customers', (s) => s.savLog);
  const sale = useKiosk('customers', (s) => s.sale);

  // The row's button says Print: the document opens with its preview and prints.
  useEffect(() => void customers.getState().loadCriteria(), [customers]);

  const print = (document: DocumentRef) => {
    void documents.getState().openAndPrint(document);
    navigation.getState().go('documents');
  };

  const used = criteria
    ? secondCriteria
        .filter((name) => criteria[name])
        .map((name) => t(criterionLabels[name]))
        .join(', ')
    : '';

  return (
    <section className="screen customers" aria-labelledby="customers-title">
      <h1 id="customers-title">{t('customers.title')}</h1>
      {phase === 'idle' ||
      (phase === 'searching' && !confirming) ||
      phase === 'failed' ||
      phase === 'none' ? (
        <CustomerSearchForm
          // No match: a fresh form holding what was typed, focused for a correction. The details
          // the service takes, once known, join the e-mail field as fields of their own.
          key={phase === 'none' ? 'none' : 'search'}
          busy={phase === 'searching'}
          criteria={taken ?? []}
          initial={criteria ?? {}}
          onSearch={(next) => void customers.getState().search(next)}
        />
      ) : (
        <button type="button" className="button" onClick={() => customers.getState().reset()}>
          {t('customers.newSearch')}
        </button>
      )}
      {phase === 'searching' && !confirming && <Busy>{t('customers.searching')}</Busy>}
      {phase === 'failed' && error && <ErrorNotice error={error} />}
      {phase === 'none' && (
        <p role="status" className="notice notice-info" data-testid="customer-none">
          {confirming || used !== ''
            ? t('customers.noneConfirm', { criteria: used })
            : t('customers.none')}
        </p>
      )}
      {(phase === 'several' || (phase === 'searching' && confirming)) && criteria && (
        <CustomerMatches
          // A new list or a new detail used is a new question: the confirmation starts empty. The
          // same question asked again (a detail that matched none) keeps what was typed.
          key={`${matches.map((match) => match.id).join()}|${used}`}
          matches={matches}
          more={moreMatches}
          criteria={criteria}
          mismatch={mismatch}
          busy={phase === 'searching'}
          onConfirm={(criterion, value) => void customers.getState().confirm(criterion, value)}
        />
      )}
      {phase === 'found' && customer && (
        <>
          <CustomerDetail customer={customer} />
          <CustomerHistory
            history={history}
            historyError={historyError}
            credits={credits}
            creditsError={creditsError}
            savLog={savLog}
            sale={sale}
            invoices={invoices}
            onPrint={print}
            onReadLog={(savId) => void customers.getState().readSavLog(savId)}
            onCloseLog={() => customers.getState().closeSavLog()}
            onOpenSale={(saleId) => void customers.getState().openSale(saleId)}
            onCloseSale={() => customers.getState().closeSale()}
            onUseCard={(giftCardId) => {
              void giftCard.getState().openCard(giftCardId);
              navigation.getState().go('giftCard');
            }}
          />
        </>
      )}
    </section>
  );
}
