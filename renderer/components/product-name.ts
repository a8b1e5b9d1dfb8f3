import type { Translate } from '../i18n/translate.ts';

interface Named {
  readonly name: string | null;
  readonly reference: string | null;
  readonly ean: string | null;
  readonly category: { readonly label: string | null } | null;
}

/**
 * What a product is called on screen. The service sends no name for some products: a row of
 * "(product without a name)" tells staff nothing, so such a product goes by its category and
 * reference (or EAN), which tell it from its neighbours, marked as not its name (`named: false`).
 */
export function productName(product: Named, t: Translate): { text: string; named: boolean } {
  if (product.name !== null && product.name.trim() !== '')
    return { text: product.name, named: true };
  const code = product.reference ?? product.ean;
  if (code === null) return { text: t('product.noName'), named: false };
  const text = [product.category?.label, code].filter(Boolean).join(' ');
  return { text: t('product.unnamed', { text }), named: false };
}
