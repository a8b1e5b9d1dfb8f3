import { useState } from 'react';
import { useI18n } from '../i18n/use-i18n.ts';

/**
 * The product's main image. Images live on the merchant's servers: offline, or when the kiosk's
 * policy does not allow that host, the image cannot load. Then nothing takes its place: an empty
 * 200 px box with a "no image" symbol told staff nothing and pushed the prices and stock down.
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
  if (url === null || failed === url) return null;
  return (
    <img
      className="product-image"
      src={url}
      alt={t('product.image', { name })}
      onError={() => setFailed(url)}
    />
  );
}
