import { execFile } from 'node:child_process';
import type { ServiceDocumentKind } from '../../shared/ipc/printing.ts';
import { fetchVerifiedDocument, type DocumentSource } from './document-source.ts';
import { newJobId, type DocumentSpool, type VerifiedPdf } from './document.ts';

export interface DocumentPreview {
  readonly kind: ServiceDocumentKind;
  readonly reference: string;
  readonly documentNumber: string | undefined;
  /** The verified PDF, for a viewer in the renderer; the renderer never fetches it itself. */
  readonly pdf: VerifiedPdf;
  /** The first page as PNG at 72 dpi, when asked for and poppler's pdftoppm is installed. */
  readonly firstPagePng: Uint8Array | undefined;
  /** Why there is no PNG although one was asked for (pdftoppm missing or failing). */
  readonly pngUnavailable: string | undefined;
}

export interface PreviewOptions {
  readonly source: DocumentSource;
  /** pdftoppm reads a file: the spool keeps it private and removes it. */
  readonly spool: DocumentSpool;
  readonly firstPagePng?: boolean;
  readonly maxDocumentBytes?: number;
  readonly signal?: AbortSignal;
  /** pdftoppm's path; looked up on PATH when absent. */
  readonly pdftoppm?: string;
  readonly timeoutMs?: number;
}

/**
 * The document as it would be printed, for the IPC layer to hand to the renderer: the same fetch
 * and the same checks as printing, so staff preview exactly what the printer would get.
 */
export async function previewDocument(
  kind: ServiceDocumentKind,
  reference: string,
  options: PreviewOptions,
): Promise<DocumentPreview> {
  const document = await fetchVerifiedDocument(options.source, kind, reference, {
    ...(options.maxDocumentBytes === undefined ? {} : { maxBytes: options.maxDocumentBytes }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  let firstPagePng: Uint8Array | undefined;
  let pngUnavailable: string | undefined;
  if (options.firstPagePng) {
    const file = await options.spool.write(kind, newJobId(), document.pdf);
    try {
      firstPagePng = await renderFirstPage(
        file.path,
        options.pdftoppm ?? 'pdftoppm',
        options.timeoutMs ?? 15_000,
      );
    } catch (error) {
      pngUnavailable = error instanceof Error ? error.message : String(error);
    } finally {
      await file.remove();
    }
  }
  return {
    kind,
    reference,
    documentNumber: document.number,
    pdf: document.pdf,
    firstPagePng,
    pngUnavailable,
  };
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** `pdftoppm -png -f 1 -l 1 -r 72 -singlefile <file>` writes the page to stdout. */
function renderFirstPage(file: string, pdftoppm: string, timeoutMs: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    execFile(
      pdftoppm,
      ['-png', '-f', '1', '-l', '1', '-r', '72', '-singlefile', file],
      {
        encoding: 'buffer',
        timeout: timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 32 * 1024 * 1024,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error) {
          const code = (error as NodeJS.ErrnoException).code;
          reject(
            new Error(
              code === 'ENOENT'
                ? 'pdftoppm (poppler-utils) is not installed.'
                : `pdftoppm could not render the page: ${stderr.toString('utf8').trim().split('\n')[0] ?? error.message}`,
            ),
          );
          return;
        }
        if (
          stdout.byteLength < PNG_SIGNATURE.length ||
          PNG_SIGNATURE.some((byte, i) => stdout[i] !== byte)
        ) {
          reject(new Error('pdftoppm did not produce a PNG image.'));
          return;
        }
        resolve(new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.byteLength));
      },
    );
  });
}
