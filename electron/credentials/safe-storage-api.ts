/**
 * Electron's `safeStorage`, as the vault needs it, injected by the Electron host: this folder
 * must run under plain Node (kioskctl, tests), so it never imports `electron`.
 *
 * Electron 45 has both forms; it deprecates the synchronous one, which Electron 46 removes.
 * Either satisfies the vault (the `safeStorage` object of any current Electron can be passed as
 * is), and the asynchronous one is preferred when present: it is the one that stays, it does not
 * block the main process on a keyring, and it reports key rotation.
 */

/** Linux only: which key store Electron chose (`basic_text` means a hard-coded key). */
type SelectedBackend = { getSelectedStorageBackend?(): string };

export interface SyncSafeStorage extends SelectedBackend {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export interface AsyncSafeStorage extends SelectedBackend {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ result: string; shouldReEncrypt: boolean }>;
}

export type SafeStorageApi = SyncSafeStorage | AsyncSafeStorage;

/** One shape for both forms. */
export interface SafeStorageCipher {
  isEncryptionAvailable(): Promise<boolean>;
  encrypt(plainText: string): Promise<Buffer>;
  /** `reEncrypt`: the key was rotated; encrypt again with the current one. */
  decrypt(encrypted: Buffer): Promise<{ text: string; reEncrypt: boolean }>;
  /** undefined when the API does not say (not Linux, or an API without the method). */
  selectedBackend(): string | undefined;
}

function isAsync(api: SafeStorageApi): api is AsyncSafeStorage {
  return typeof (api as Partial<AsyncSafeStorage>).encryptStringAsync === 'function';
}

export function safeStorageCipher(api: SafeStorageApi): SafeStorageCipher {
  const selectedBackend = () =>
    typeof api.getSelectedStorageBackend === 'function'
      ? api.getSelectedStorageBackend()
      : undefined;
  if (isAsync(api)) {
    return {
      isEncryptionAvailable: () => api.isAsyncEncryptionAvailable(),
      encrypt: (plainText) => api.encryptStringAsync(plainText),
      decrypt: async (encrypted) => {
        const { result, shouldReEncrypt } = await api.decryptStringAsync(encrypted);
        return { text: result, reEncrypt: shouldReEncrypt };
      },
      selectedBackend,
    };
  }
  return {
    isEncryptionAvailable: async () => api.isEncryptionAvailable(),
    encrypt: async (plainText) => api.encryptString(plainText),
    decrypt: async (encrypted) => ({ text: api.decryptString(encrypted), reEncrypt: false }),
    selectedBackend,
  };
}
