import { randomUUID } from 'node:crypto';
import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrintJobId, type DocumentKind } from '../../shared/ipc/printing.ts';
import { DEFAULT_PDF_MAX_BYTES, PDF_MAGIC } from '../api/index.ts';

export type DocumentRejectedReason = 'not_pdf' | 'truncated' | 'too_large' | 'empty';

/**
 * The bytes are not a document a printer may receive. Thrown before anything is written to disk
 * or sent to a queue, so a refused document never reaches a printer.
 */
export class DocumentRejected extends Error {
  readonly code = 'document_rejected';
  override readonly name = 'DocumentRejected';
  readonly reason: DocumentRejectedReason;
  constructor(reason: DocumentRejectedReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

const EOF_MARKER = [0x25, 0x25, 0x45, 0x4f, 0x46]; // "%%EOF"
/** Readers look for the end-of-file marker in the last 1024 bytes (ISO 32000 implementation note). */
const EOF_WINDOW = 1024;

declare const verified: unique symbol;
/** Bytes that passed `verifyPdf`; only that function makes one, so printing code can demand it. */
export type VerifiedPdf = Uint8Array & { readonly [verified]: true };

export interface VerifyOptions {
  /** The reply's Content-Type when known; parameters (`; charset=...`) are ignored. */
  readonly contentType?: string | undefined;
  readonly maxBytes?: number;
}

/**
 * The printing side's own check, whatever the API client already did: an HTML error page
 * printed as text, or a PDF cut short by a dropped connection, wastes paper or prints nothing,
 * and a kiosk must never send either to a queue.
 */
export function verifyPdf(bytes: Uint8Array, options: VerifyOptions = {}): VerifiedPdf {
  // The API client's limit too: whatever the source, the same documents pass.
  const maxBytes = options.maxBytes ?? DEFAULT_PDF_MAX_BYTES;
  if (bytes.byteLength === 0) {
    throw new DocumentRejected('empty', 'The document is empty.');
  }
  if (bytes.byteLength > maxBytes) {
    throw new DocumentRejected('too_large', `The document is larger than ${maxBytes} bytes.`);
  }
  if (options.contentType !== undefined) {
    const type = options.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (type !== 'application/pdf') {
      throw new DocumentRejected(
        'not_pdf',
        `The document is not a PDF (content type ${type === '' ? 'missing' : type}).`,
      );
    }
  }
  // The service never sends leading junk, so the header must come first (as the client checks).
  if (bytes.byteLength < PDF_MAGIC.length || PDF_MAGIC.some((byte, i) => bytes[i] !== byte)) {
    throw new DocumentRejected('not_pdf', 'The document does not start with %PDF-.');
  }
  if (!endsWithEofMarker(bytes)) {
    throw new DocumentRejected('truncated', 'The document is incomplete (no %%EOF at its end).');
  }
  return bytes as VerifiedPdf;
}

export function isDocumentRejected(value: unknown): value is DocumentRejected {
  return value instanceof DocumentRejected;
}

function endsWithEofMarker(bytes: Uint8Array): boolean {
  const from = Math.max(0, bytes.byteLength - EOF_WINDOW);
  outer: for (let i = bytes.byteLength - EOF_MARKER.length; i >= from; i--) {
    for (let j = 0; j < EOF_MARKER.length; j++) {
      if (bytes[i + j] !== EOF_MARKER[j]) continue outer;
    }
    return true;
  }
  return false;
}

/** An opaque job identifier: it names spool files and jobs, and says nothing about a customer. */
export function newJobId(): string {
  return randomUUID();
}

export interface SpooledFile {
  readonly path: string;
  /** Idempotent; a file already gone is not an error. */
  remove(): Promise<void>;
}

/**
 * Where documents wait while a backend prints them. One private directory (0700) per spool,
 * files created exclusively with mode 0600, named `<kind>-<opaque job id>.pdf` so neither the
 * name nor the permissions tell another local user whose invoice it is.
 */
export class DocumentSpool {
  readonly directory: string;
  readonly #files = new Set<string>();

  private constructor(directory: string) {
    this.directory = directory;
  }

  /** `parent` defaults to the OS temp directory; the spool makes its own private folder in it. */
  static async create(parent: string = tmpdir()): Promise<DocumentSpool> {
    // mkdtemp creates the directory 0700, and its random suffix keeps a stale or hostile
    // directory of the same name from being reused.
    const directory = await mkdtemp(join(parent, 'kiosk-print-'));
    const info = await stat(directory);
    if ((info.mode & 0o077) !== 0) {
      await rm(directory, { recursive: true, force: true });
      throw new Error(`The print spool directory ${directory} is not private.`);
    }
    return new DocumentSpool(directory);
  }

  async write(kind: DocumentKind, jobId: string, pdf: VerifiedPdf): Promise<SpooledFile> {
    if (!PrintJobId.safeParse(jobId).success) {
      throw new Error('A spool file name must come from an opaque job id.');
    }
    const path = join(this.directory, `${kind}-${jobId}.pdf`);
    // 'wx': never follow or overwrite something already there.
    const handle = await open(path, 'wx', 0o600);
    this.#files.add(path);
    try {
      await handle.writeFile(pdf);
      await handle.sync();
    } catch (error) {
      await handle.close().catch(() => undefined);
      await this.#remove(path);
      throw error;
    }
    await handle.close();
    return { path, remove: () => this.#remove(path) };
  }

  /** Paths still on disk; the queue's tests use it to show nothing is left behind. */
  files(): string[] {
    return [...this.#files];
  }

  /** Removes every file and the directory itself. */
  async dispose(): Promise<void> {
    await Promise.all([...this.#files].map((path) => this.#remove(path)));
    await rm(this.directory, { recursive: true, force: true });
  }

  async #remove(path: string): Promise<void> {
    await rm(path, { force: true });
    this.#files.delete(path);
  }
}
