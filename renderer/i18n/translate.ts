import type { Catalogue, MessageKey } from './catalogue.ts';

/** Values a message may interpolate: already formatted by the caller (money, dates...). */
export type MessageParams = Readonly<Record<string, string | number>>;

export type Translate = (key: MessageKey, params?: MessageParams) => string;

const placeholder = /\{(\w+)\}/g;

/**
 * Looks the key up and fills `{name}` placeholders. A placeholder without a value stays visible
 * as `{name}`: a missing parameter is a bug to see on screen, not a blank to miss.
 */
export function createTranslate(catalogue: Catalogue): Translate {
  return (key, params) => {
    const text = catalogue[key];
    if (!params) return text;
    return text.replace(placeholder, (whole, name: string) => {
      const value = params[name];
      return value === undefined ? whole : String(value);
    });
  };
}
