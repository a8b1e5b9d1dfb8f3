import type { PreviewDocumentReply } from '../../shared/ipc/printing.ts';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * The first page as an image, exactly as it will print. The kiosk's policy lets no PDF viewer
 * or frame into the page, so the PNG main rendered is the preview; without it, say why.
 */
export function DocumentPreview({
  preview,
  title,
}: {
  readonly preview: PreviewDocumentReply;
  readonly title: string;
}) {
  const { t } = useI18n();
  if (preview.firstPagePngBase64 === null) {
    return (
      <p className="notice notice-info" data-testid="preview-unavailable">
        {t('documents.noPreview')}
      </p>
    );
  }
  return (
    <img
      className="document-preview"
      data-testid="document-preview"
      src={`data:image/png;base64,${preview.firstPagePngBase64}`}
      alt={t('documents.previewAlt', { document: title })}
    />
  );
}
