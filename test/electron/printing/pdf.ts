import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const execFileAsync = promisify(execFile);

/** A one-page A4 PDF with `lines` of text, as an invoice generator would make it. */
export async function makePdf(...lines: string[]): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([595.28, 841.89]);
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 780 - i * 24, font, size: 16 }));
  return document.save();
}

/** The text of a PDF as poppler's pdftotext reads it. */
export async function pdfText(path: string): Promise<string> {
  const { stdout } = await execFileAsync('pdftotext', ['-layout', path, '-'], { timeout: 15_000 });
  return stdout;
}
