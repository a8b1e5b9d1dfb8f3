import {
  apiDocumentSource,
  chooseBackend,
  type DocumentApi,
  type DocumentSource,
  DocumentSpool,
  type ElectronPrintHost,
  type PrintBackend,
  type PrintingConfig,
  PrintQueue,
} from '../printing/index.ts';
import type { IntegrationProfile } from '../../shared/profile/index.ts';
import type { Logger } from '../logging/index.ts';

export type KioskPrintingOptions = PrintingConfig & {
  /** Inside Electron: Chromium printing, for Windows and machines without CUPS. */
  readonly electronHost?: ElectronPrintHost;
  readonly platform?: NodeJS.Platform;
};

/**
 * Printing as the kiosk runs it. The document source and the spool always work (previews); a
 * print backend may not exist on this machine (no CUPS tools outside Electron), which only
 * disables printing: `backend` and `queue` are then undefined and `problem` says why.
 */
export interface KioskPrinting {
  readonly documents: DocumentSource;
  readonly spool: DocumentSpool;
  readonly backend: PrintBackend | undefined;
  readonly queue: PrintQueue | undefined;
  readonly problem: string;
  /** Ends the queue, then releases the backend and the spool; never rejects. */
  close(): Promise<void>;
}

export async function openKioskPrinting(
  api: DocumentApi,
  options: KioskPrintingOptions | undefined,
  logger: Logger,
  profile?: () => IntegrationProfile,
): Promise<KioskPrinting> {
  const documents = apiDocumentSource(api, profile);
  const spool = await DocumentSpool.create();
  let backend: PrintBackend | undefined;
  let problem = 'no print backend';
  try {
    const choice = await chooseBackend({
      config: options ?? {},
      platform: options?.platform ?? process.platform,
      electronHost: options?.electronHost,
    });
    backend = choice.backend;
    logger.info('kiosk.printing.backend', { backend: backend.name, why: choice.why });
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
    logger.warn('kiosk.printing.unavailable', { error });
  }
  const queue =
    backend === undefined ? undefined : new PrintQueue({ backend, source: documents, spool });
  return {
    documents,
    spool,
    backend,
    queue,
    problem,
    async close() {
      await queue?.close().catch(() => undefined);
      await backend?.dispose?.().catch(() => undefined);
      await spool.dispose().catch(() => undefined);
    },
  };
}
