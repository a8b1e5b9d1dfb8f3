import { SearchX } from 'lucide-react';
import { useCallback, useId } from 'react';
import type { SearchHit } from '../../shared/ipc/catalog.ts';
import { AnswerSourceNote } from '../components/AnswerSourceNote.tsx';
import { ErrorNotice } from '../components/ErrorNotice.tsx';
import { ProductDetail } from '../components/ProductDetail.tsx';
import { ProductRow } from '../components/ProductRow.tsx';
import { ShopPicker } from '../components/ShopPicker.tsx';
import { VirtualList } from '../components/VirtualList.tsx';
import { useKiosk } from '../hooks/use-store.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import { useStores } from '../stores/stores-context.tsx';
import { Busy } from '../components/Busy.tsx';

/**
 * Matches `.product-row` in kiosk.css: the name on up to two lines, then the identifiers and
 * price, then the stock (a narrow list, beside an open product at 1366×768), or the name and
 * identifiers beside a price and stock that may wrap to two lines each (a wide one), plus a touch
 * margin. Sized for the narrow layout's three lines and the wide one's four on the side.
 */
export const PRODUCT_ROW_HEIGHT = 128;

const keyOf = (hit: SearchHit) => hit.uuid;

export function AvailabilityScreen() {
  const { t, fmt } = useI18n();
  const { availability } = useStores();
  const searchId = useId();
  const shops = useKiosk('availability', (s) => s.shops);
  const shopsError = useKiosk('availability', (s) => s.shopsError);
  const shopId = useKiosk('availability', (s) => s.shopId);
  const homeShopId = useKiosk('availability', (s) => s.homeShopId);
  const text = useKiosk('availability', (s) => s.text);
  const hits = useKiosk('availability', (s) => s.hits);
  const meta = useKiosk('availability', (s) => s.meta);
  const searching = useKiosk('availability', (s) => s.searching);
  const complete = useKiosk('availability', (s) => s.complete);
  const error = useKiosk('availability', (s) => s.error);
  const productId = useKiosk('availability', (s) => s.productId);
  const detail = useKiosk('availability', (s) => s.detail);
  const detailLoading = useKiosk('availability', (s) => s.detailLoading);
  const detailError = useKiosk('availability', (s) => s.detailError);

  const open = useCallback(
    (id: string) => void availability.getState().openProduct(id),
    [availability],
  );
  const loadMore = useCallback(() => void availability.getState().loadMore(), [availability]);
  const renderRow = useCallback((hit: SearchHit) => <ProductRow hit={hit} onOpen={open} />, [open]);

  return (
    <section
      className={productId === null ? 'screen availability' : 'screen availability detail-open'}
      aria-labelledby="availability-title"
    >
      <h1 id="availability-title">{t('availability.title')}</h1>
      <div className="results-pane">
        <div className="toolbar">
          {shops && (
            <ShopPicker
              label={t('availability.shop')}
              shops={shops}
              value={shopId}
              allLabel={t('availability.allShops')}
              onChange={(id) => availability.getState().chooseShop(id)}
            />
          )}
          {shopsError && <ErrorNotice error={shopsError} />}
          <div className="field field-grow">
            <label htmlFor={searchId} className="field-label">
              {t('availability.search')}
            </label>
            <input
              id={searchId}
              type="search"
              className="input"
              data-primary-action
              value={text}
              placeholder={t('availability.searchHint')}
              autoComplete="off"
              onChange={(event) => availability.getState().typeText(event.target.value)}
            />
          </div>
        </div>
        <div className="results-status" role="status" data-testid="results-status">
          {searching && hits.length === 0
            ? t('availability.searching')
            : meta && hits.length === 0
              ? text.trim() === ''
                ? t('availability.noProducts')
                : t('availability.noResults', { text: text.trim() })
              : meta &&
                t(complete ? 'availability.count' : 'availability.countMore', {
                  count: fmt.integer(hits.length),
                })}
        </div>
        {meta && <AnswerSourceNote meta={meta} />}
        {error && (
          <ErrorNotice error={error} onRetry={() => void availability.getState().search()} />
        )}
        {meta && hits.length === 0 && !searching && !error ? (
          // Nothing found is an answer, said where the list would be, with what to try next.
          <div className="empty-state" data-testid="results-empty">
            <SearchX aria-hidden="true" size={48} strokeWidth={1.5} />
            <p>{t('availability.emptyHint')}</p>
          </div>
        ) : (
          <VirtualList
            items={hits}
            rowHeight={PRODUCT_ROW_HEIGHT}
            label={t('availability.results')}
            getKey={keyOf}
            renderRow={renderRow}
            onEndReached={loadMore}
          />
        )}
      </div>
      {productId !== null && (
        <div className="detail-pane">
          {detailLoading && !detail && <Busy>{t('product.loading')}</Busy>}
          {detailError && (
            <>
              <ErrorNotice
                error={detailError}
                onRetry={() => void availability.getState().openProduct(productId)}
              />
              <button
                type="button"
                className="button"
                onClick={() => availability.getState().closeProduct()}
              >
                {t('product.back')}
              </button>
            </>
          )}
          {detail && (
            <ProductDetail
              detail={detail}
              shopId={shopId}
              homeShopId={homeShopId}
              onBack={() => availability.getState().closeProduct()}
            />
          )}
        </div>
      )}
    </section>
  );
}
