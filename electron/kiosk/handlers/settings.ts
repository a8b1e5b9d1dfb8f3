import { ipcErrorCodes } from '../../../shared/ipc/errors.ts';
import {
  type ContractReport,
  type IntegrationProfile,
  viewOf,
} from '../../../shared/profile/index.ts';
import type { settingsMessages } from '../../../shared/ipc/status.ts';
import type { CommerceApiClient } from '../../api/index.ts';
import { type ContractClient, checkContract } from '../../contract/index.ts';
import { type HandlerReply, IpcFailure, type KioskHandlers, toIpcError } from '../../ipc/index.ts';
import type { Logger } from '../../logging/index.ts';
import type { Outbox, OutboxSender } from '../../outbox/index.ts';
import { ProfileError, type ProfileInForce } from '../../profile/index.ts';
import type { AdminPin } from '../admin-pin.ts';
import type { CredentialStore } from '../credential-store.ts';
import type { SettingsStore } from '../settings-store.ts';

export interface SettingsHandlerDeps {
  readonly settings: SettingsStore;
  readonly adminGuard: AdminPin;
  readonly credentials: CredentialStore;
  readonly client: Pick<CommerceApiClient, 'authenticate' | 'ping'> & ContractClient;
  /** Takes new limits and a new shop at once. */
  readonly outbox: Pick<Outbox, 'setLimits' | 'setShopId'>;
  /** Resumed once new credentials are saved. */
  readonly sender: Pick<OutboxSender, 'resume'>;
  /** The base URL this run uses (null: the embedded sandbox); a saved one waits for a restart. */
  readonly runningApiBaseUrl: string | null;
  /** Whether setup may choose the embedded sandbox (`apiBaseUrl: null`). */
  readonly sandboxAvailable: boolean;
  readonly logger: Logger;
  /** The integration profile in force, switched here when an administrator saves another. */
  readonly profiles: ProfileInForce;
  /**
   * Keeps the check's verdict on the card's usages (`electron/outbox/usage-evidence.ts`): only
   * usages verified filled make "absent from them" evidence that a debit was never applied.
   */
  readonly recordUsageCheck?: (profile: IntegrationProfile, report: ContractReport) => void;
}

/** Settings and setup, behind the administrator PIN; credentials are write-only. */
export function settingsHandlers(
  deps: SettingsHandlerDeps,
): Pick<KioskHandlers, keyof typeof settingsMessages> {
  const { settings, adminGuard, credentials, client, outbox, sender, logger } = deps;
  const restartRequired = () => settings.current.apiBaseUrl !== deps.runningApiBaseUrl;
  /**
   * The API setup is set to use (from the next start when it changed): credentials are stored for
   * it, and the status says when the stored ones belong to another (setup asks for them again).
   */
  const targetOrigin = () => {
    const target = settings.current.apiBaseUrl;
    return target === null ? undefined : new URL(target).origin;
  };
  const settingsReply = async (): Promise<HandlerReply<'getSettings'>> => ({
    settings: settings.current,
    adminPinConfigured: adminGuard.configured,
    credentials: await credentials.status(targetOrigin()),
    sandboxAvailable: deps.sandboxAvailable,
    restartRequired: restartRequired(),
    profile: deps.profiles.description,
  });

  return {
    getSettings: () => settingsReply(),
    updateSettings: async (request) => {
      const { changes } = request;
      if (changes.apiBaseUrl === null && !deps.sandboxAvailable) {
        throw new IpcFailure(
          ipcErrorCodes.invalidRequest,
          'this kiosk has no embedded demo sandbox: give the Commerce API base URL',
          { issues: [{ path: 'changes.apiBaseUrl', message: 'no embedded demo sandbox' }] },
        );
      }
      if (changes.profilePath !== undefined) {
        // Loaded before it is saved: a file that does not load is refused, nothing changes.
        try {
          deps.profiles.useSettingsPath(changes.profilePath);
        } catch (error) {
          if (!(error instanceof ProfileError)) throw error;
          throw new IpcFailure(ipcErrorCodes.invalidRequest, error.message, {
            issues: [{ path: 'changes.profilePath', message: error.message }],
          });
        }
      }
      await settings.update(changes);
      // Live: the next debit is checked against the new limits and carries the new shop.
      if (changes.offlineLimits !== undefined) outbox.setLimits(settings.current.offlineLimits);
      if (changes.shopId !== undefined) outbox.setShopId(settings.current.shopId ?? undefined);
      // A held debit (its body refused by the service) is rebuilt with the new profile and sent.
      if (changes.profilePath !== undefined) sender.resume();
      if (changes.apiBaseUrl !== undefined) {
        logger.info('kiosk.settings.api_base_url_saved', { restartRequired: restartRequired() });
      }
      return settingsReply();
    },
    setCredentials: async (request) => {
      const origin = targetOrigin();
      await credentials.write({ email: request.email, password: request.password, origin });
      // A token of the previous account must not outlive it: issue one with the new account now
      // (the client sends it only when it belongs to the API this run uses). Refused credentials
      // are not this message's failure; testConnection reports them.
      await client.authenticate().catch((error: unknown) => {
        logger.info('kiosk.credentials.first_auth_failed', { code: toIpcError(error).code });
      });
      sender.resume();
      return { credentials: await credentials.status(origin) };
    },
    testConnection: async () => {
      try {
        const session = await client.authenticate();
        const ping = await client.ping();
        return {
          ok: true,
          expiresAt: session.expiresAt,
          scopes: session.scopes === null ? null : [...session.scopes],
          apiVersion: viewOf(deps.profiles.current(), 'ping', ping).version,
          error: null,
        };
      } catch (error) {
        const { code, message } = toIpcError(error);
        return {
          ok: false,
          expiresAt: null,
          scopes: null,
          apiVersion: null,
          error: { code, message },
        };
      }
    },
    checkContract: async () => {
      const profile = deps.profiles.current();
      const report = await checkContract(client, profile);
      try {
        deps.recordUsageCheck?.(profile, report);
      } catch (error) {
        // The report stands; the verdict is kept at the next check.
        logger.warn('kiosk.contract.usage_check_not_recorded', { error });
      }
      return report;
    },
    checkAdminPin: (request) => ({ valid: adminGuard.check(request.pin) }),
  };
}
