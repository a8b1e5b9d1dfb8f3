import type { SearchProductsReply } from '../../shared/ipc/catalog.ts';
import { describePermissions } from '../i18n/describe-error.ts';
import { useI18n } from '../i18n/use-i18n.ts';

type Meta = Pick<SearchProductsReply, 'source' | 'asOf' | 'liveError' | 'missingScopes'>;

/** Where an answer came from: the local catalogue (and how old it is) or the service just now. */
export function AnswerSourceNote({ meta }: { readonly meta: Meta }) {
  const { t, fmt } = useI18n();
  return (
    <div className="answer-source" data-testid="answer-source" data-source={meta.source}>
      <p>
        {meta.source === 'mirror'
          ? meta.asOf
            ? t('answer.mirror', { time: fmt.dateTime(meta.asOf) })
            : t('answer.mirrorNoTime')
          : meta.asOf
            ? t('answer.live', { time: fmt.dateTime(meta.asOf) })
            : t('answer.liveNoTime')}
      </p>
      {meta.liveError && <p className="note-warning">{t('answer.liveFailed')}</p>}
      {meta.missingScopes && meta.missingScopes.length > 0 && (
        <p className="note-warning">
          {t('answer.missingScopes', { permissions: describePermissions(meta.missingScopes, t) })}
        </p>
      )}
    </div>
  );
}
