import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * The product's main image. Images live on the merchant's servers: offline, or when the kiosk's
 * policy does not allow that host, the image cannot load and a plain placeholder takes its place.
 */
export function ProductImage({
  url,
  name,
}: {
  readonly url: string | null;
  readonly name: string;
}) {
  const { t } = useI18n();
  const [failed, setFailed] = useState<string | null>(null);
  if (url === null || failed === url) {
    return (
      <div
        className="product-image product-image-missing"
        role="img"
        aria-label={t('product.noImage')}
      >
        <ImageOff aria-hidden="true" size={40} strokeWidth={1.5} />
      </div>
    );
  }
  return (
    <img
      className="product-image"
      src={url}
      alt={t('product.image', { name })}
      onError={() => setFailed(url)}
    />
  );
}
