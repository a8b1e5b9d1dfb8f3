import { createStore, type StoreApi } from 'zustand/vanilla';
import type { KioskApi } from '../../shared/ipc/contract.ts';
import type { IpcError } from '../../shared/ipc/errors.ts';
import type { ContractReport } from '../../shared/profile/index.ts';
import type {
  KioskSettingsChanges,
  SettingsReply,
  TestConnectionReply,
} from '../../shared/ipc/status.ts';
import { settle } from './call.ts';

export type SetupSaved = 'settings' | 'credentials' | null;

export interface SetupState {
  readonly settings: SettingsReply | null;
  readonly settingsError: IpcError | null;
  /** The PIN as typed on the keypad. */
  readonly pinEntry: string;
  readonly checkingPin: boolean;
  /** Wrong PIN, locked out, no PIN configured... */
  readonly pinError: IpcError | 'invalid' | null;
  /**
   * The PIN that unlocked the screen, kept in memory only while it is open: every protected
   * message carries it and main checks it again (the renderer's unlock is a courtesy, not a gate).
   */
  readonly unlockedWith: string | null;
  /** Setup locked itself for want of use: the screen says so until a PIN is typed. */
  readonly idleLocked: boolean;
  readonly saving: boolean;
  readonly saved: SetupSaved;
  readonly saveError: IpcError | null;
  readonly testing: boolean;
  readonly test: TestConnectionReply | null;
  readonly testError: IpcError | null;
  /** "Check the service": what the profile in force finds in the service's records. */
  readonly checking: boolean;
  readonly contract: ContractReport | null;
  readonly contractError: IpcError | null;
  load(): Promise<void>;
  setPinEntry(pin: string): void;
  unlock(): Promise<void>;
  /** Forgets the PIN (typed or unlocking); `idle`: nobody used setup for a while. */
  lock(reason?: 'idle'): void;
  /** Only the keys given change; main validates them again and applies them. */
  update(changes: KioskSettingsChanges): Promise<boolean>;
  /** Write-only: nothing ever reads them back. */
  setCredentials(email: string, password: string): Promise<boolean>;
  testConnection(): Promise<void>;
  checkContract(): Promise<void>;
}

export type SetupStore = StoreApi<SetupState>;

export function createSetupStore(api: KioskApi): SetupStore {
  // Bumped by every lock: a PIN check still on its way when setup locks opens nothing.
  let session = 0;
  return createStore<SetupState>()((set, get) => ({
    settings: null,
    settingsError: null,
    pinEntry: '',
    checkingPin: false,
    pinError: null,
    unlockedWith: null,
    idleLocked: false,
    saving: false,
    saved: null,
    saveError: null,
    testing: false,
    test: null,
    testError: null,
    checking: false,
    contract: null,
    contractError: null,
    load: async () => {
      const reply = await settle(api.getSettings());
      if (reply.ok) set({ settings: reply.value, settingsError: null });
      else set({ settingsError: reply.error });
    },
    setPinEntry: (pinEntry) => set({ pinEntry, pinError: null, idleLocked: false }),
    unlock: async () => {
      const pin = get().pinEntry;
      if (pin.length < 4 || get().checkingPin) return;
      const askedIn = session;
      set({ checkingPin: true, pinError: null });
      const reply = await settle(api.checkAdminPin({ pin }));
      if (askedIn !== session) set({ checkingPin: false });
      else if (!reply.ok) set({ checkingPin: false, pinEntry: '', pinError: reply.error });
      else if (!reply.value.valid) set({ checkingPin: false, pinEntry: '', pinError: 'invalid' });
      else set({ checkingPin: false, pinEntry: '', unlockedWith: pin, saved: null, test: null });
    },
    lock: (reason) => {
      session += 1;
      set({
        unlockedWith: null,
        idleLocked: reason === 'idle',
        pinEntry: '',
        pinError: null,
        saved: null,
        saveError: null,
        test: null,
        testError: null,
        contract: null,
        contractError: null,
      });
    },
    update: async (changes) => {
      const adminPin = get().unlockedWith;
      if (adminPin === null) return false;
      set({ saving: true, saved: null, saveError: null });
      const reply = await settle(api.updateSettings({ adminPin, changes }));
      if (reply.ok) {
        // A report of another profile would mislead: checked again on demand.
        const contract = changes.profilePath === undefined ? get().contract : null;
        set({ saving: false, saved: 'settings', settings: reply.value, contract });
        return true;
      }
      set({ saving: false, saveError: reply.error });
      return false;
    },
    setCredentials: async (email, password) => {
      const adminPin = get().unlockedWith;
      if (adminPin === null) return false;
      set({ saving: true, saved: null, saveError: null });
      const reply = await settle(api.setCredentials({ adminPin, email, password }));
      if (reply.ok) {
        const { settings } = get();
        set({
          saving: false,
          saved: 'credentials',
          settings: settings ? { ...settings, credentials: reply.value.credentials } : settings,
        });
        return true;
      }
      set({ saving: false, saveError: reply.error });
      return false;
    },
    testConnection: async () => {
      set({ testing: true, test: null, testError: null });
      const reply = await settle(api.testConnection());
      if (reply.ok) set({ testing: false, test: reply.value });
      else set({ testing: false, testError: reply.error });
    },
    checkContract: async () => {
      set({ checking: true, contract: null, contractError: null });
      const reply = await settle(api.checkContract());
      if (reply.ok) set({ checking: false, contract: reply.value });
      else set({ checking: false, contractError: reply.error });
    },
  }));
}
