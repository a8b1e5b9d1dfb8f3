/**
 * Failures of the catalogue mirror are values with a stable `code`, so the kiosk screen and
 * `kioskctl` can say what to do: ask an administrator for scopes, wait for the other process's
 * sync, go online. API failures that are not about the mirror stay the client's typed errors.
 */
export type CatalogErrorCode =
  /** The account lacks scopes the catalogue routes need; `missingScopes` says which. */
  | 'CATALOG_FORBIDDEN'
  /** Another process (the kiosk app or kioskctl) is synchronising this data directory. */
  | 'CATALOG_SYNC_BUSY'
  /** Not in the mirror, and the service could not be asked (offline) or does not know it. */
  | 'CATALOG_PRODUCT_NOT_FOUND'
  /** No mirror yet and no way to ask the service. */
  | 'CATALOG_UNAVAILABLE'
  /** A search or lookup argument is out of range. */
  | 'CATALOG_INVALID_QUERY';

export class CatalogError extends Error {
  override readonly name = 'CatalogError';
  readonly code: CatalogErrorCode;
  readonly missingScopes: readonly string[];

  constructor(
    code: CatalogErrorCode,
    message: string,
    options: { cause?: unknown; missingScopes?: readonly string[] } = {},
  ) {
    super(`${code}: ${message}`, options.cause === undefined ? {} : { cause: options.cause });
    this.code = code;
    this.missingScopes = options.missingScopes ?? [];
  }

  toJSON(): { code: CatalogErrorCode; message: string; missingScopes?: readonly string[] } {
    return {
      code: this.code,
      message: this.message,
      ...(this.missingScopes.length > 0 ? { missingScopes: this.missingScopes } : {}),
    };
  }
}
