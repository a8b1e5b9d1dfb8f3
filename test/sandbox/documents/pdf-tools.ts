import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Runs poppler's real tools on PDF bytes: what a person or a printer would get out of the file. */

const run = promisify(execFile);

export interface PdfReading {
  text: string;
  info: Record<string, string>;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfReading> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    await writeFile(file, bytes);
    const { stdout: text } = await run('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-']);
    const { stdout: rawInfo } = await run('pdfinfo', [file]);
    const info: Record<string, string> = {};
    for (const line of rawInfo.split('\n')) {
      const at = line.indexOf(':');
      if (at > 0) info[line.slice(0, at).trim()] = line.slice(at + 1).trim();
    }
    return { text, info };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function startsLikePdf(bytes: Uint8Array): boolean {
  return new TextDecoder().decode(bytes.subarray(0, 5)) === '%PDF-';
}
