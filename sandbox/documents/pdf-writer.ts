import { PDFDocument, PageSizes, StandardFonts, rgb } from 'pdf-lib';
import type { PDFFont, PDFPage } from 'pdf-lib';

/**
 * A small top-to-bottom layout on A4 pages for the sandbox's documents: a cursor that moves
 * down, text that wraps or is cut to its column, a new page when the current one is full, and
 * page numbers at the end. Standard fonts only (nothing to embed, nothing to download), so every
 * string goes through `encodable` first: WinAnsi has the French accents, ’, œ and €, but not the
 * spaces Intl puts in fr-FR formats, and pdf-lib throws on any character it cannot encode.
 */

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 50;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const BOTTOM = MARGIN + 30; // room for the footer
const GREY = rgb(0.4, 0.4, 0.4);
const RULE = rgb(0.75, 0.75, 0.75);

export interface DocumentInfo {
  title: string;
  subject: string;
  /** Document dates come from the record, so the same record always gives the same bytes. */
  date: Date;
  footer: string;
}

export interface TextStyle {
  size?: number;
  bold?: boolean;
  grey?: boolean;
}

export interface Cell extends TextStyle {
  text: string;
  /** Left edge, from the left margin. */
  x: number;
  width: number;
  align?: 'left' | 'right';
}

export class PdfWriter {
  readonly #doc: PDFDocument;
  readonly #regular: PDFFont;
  readonly #bold: PDFFont;
  readonly #charset: ReadonlySet<number>;
  readonly #footer: string;
  #page: PDFPage;
  #y: number;

  private constructor(doc: PDFDocument, regular: PDFFont, bold: PDFFont, footer: string) {
    this.#doc = doc;
    this.#regular = regular;
    this.#bold = bold;
    this.#charset = new Set(regular.getCharacterSet());
    this.#footer = footer;
    this.#page = doc.addPage(PageSizes.A4);
    this.#y = PAGE_HEIGHT - MARGIN;
  }

  static async create(info: DocumentInfo): Promise<PdfWriter> {
    const doc = await PDFDocument.create({ updateMetadata: false });
    doc.setTitle(info.title);
    doc.setSubject(info.subject);
    doc.setAuthor('Commerce API V1 sandbox');
    doc.setProducer('commerce-kiosk sandbox (pdf-lib)');
    doc.setCreator('commerce-kiosk sandbox');
    doc.setLanguage('fr-FR');
    doc.setCreationDate(info.date);
    doc.setModificationDate(info.date);
    const regular = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    return new PdfWriter(doc, regular, bold, info.footer);
  }

  /** The text with every character the standard fonts cannot show replaced by a close one. */
  encodable(text: string): string {
    let out = '';
    for (const char of text
      .replace(/[\u00a0\u2007\u2009\u202f]/g, ' ')
      .replace(/[\r\n\t]+/g, ' ')) {
      const code = char.codePointAt(0) ?? 0x3f;
      if (this.#charset.has(code)) {
        out += char;
        continue;
      }
      // Accented letters outside WinAnsi (ő, ł...) lose their accent; anything else becomes '?'.
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      out +=
        [...base].every((c) => this.#charset.has(c.codePointAt(0) ?? 0)) && base.length > 0
          ? base
          : '?';
    }
    return out;
  }

  #font(style: TextStyle): PDFFont {
    return style.bold ? this.#bold : this.#regular;
  }

  #width(text: string, style: TextStyle): number {
    return this.#font(style).widthOfTextAtSize(text, style.size ?? 10);
  }

  /** The text cut to `width` with an ellipsis when it does not fit. */
  fit(text: string, width: number, style: TextStyle = {}): string {
    let safe = this.encodable(text);
    if (this.#width(safe, style) <= width) return safe;
    while (safe.length > 0 && this.#width(`${safe}…`, style) > width) safe = safe.slice(0, -1);
    return `${safe.trimEnd()}…`;
  }

  /** Lines of at most `width` points, cut at spaces (a word longer than a line is cut to fit). */
  wrap(text: string, width: number, style: TextStyle = {}): string[] {
    const lines: string[] = [];
    let current = '';
    for (const word of this.encodable(text).split(/ +/)) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (this.#width(candidate, style) <= width) current = candidate;
      else {
        if (current !== '') lines.push(current);
        current = this.#width(word, style) <= width ? word : this.fit(word, width, style);
      }
    }
    if (current !== '') lines.push(current);
    return lines.length > 0 ? lines : [''];
  }

  /** Starts a new page when less than `height` points are left. */
  ensure(height: number): void {
    if (this.#y - height >= BOTTOM) return;
    this.#page = this.#doc.addPage(PageSizes.A4);
    this.#y = PAGE_HEIGHT - MARGIN;
  }

  space(points: number): void {
    this.#y -= points;
  }

  /** One line of cells side by side, then the cursor moves below it. */
  row(cells: readonly Cell[]): void {
    const size = Math.max(...cells.map((cell) => cell.size ?? 10));
    const height = size * 1.45;
    this.ensure(height);
    for (const cell of cells) {
      const text = this.fit(cell.text, cell.width, cell);
      const width = this.#width(text, cell);
      const x = MARGIN + cell.x + (cell.align === 'right' ? cell.width - width : 0);
      this.#page.drawText(text, {
        x,
        y: this.#y - size,
        size: cell.size ?? 10,
        font: this.#font(cell),
        color: cell.grey ? GREY : rgb(0, 0, 0),
      });
    }
    this.#y -= height;
  }

  /** A full-width line of text. */
  line(text: string, style: TextStyle = {}): void {
    this.row([{ text, x: 0, width: CONTENT_WIDTH, ...style }]);
  }

  /** Wrapped text from `x` over `width` points. */
  paragraph(text: string, style: TextStyle & { x?: number; width?: number } = {}): void {
    const x = style.x ?? 0;
    for (const line of this.wrap(text, style.width ?? CONTENT_WIDTH - x, style))
      this.row([{ ...style, text: line, x, width: style.width ?? CONTENT_WIDTH - x }]);
  }

  /** A horizontal rule across the content width. */
  rule(): void {
    this.ensure(8);
    this.#y -= 4;
    this.#page.drawLine({
      start: { x: MARGIN, y: this.#y },
      end: { x: MARGIN + CONTENT_WIDTH, y: this.#y },
      thickness: 0.5,
      color: RULE,
    });
    this.#y -= 6;
  }

  async save(): Promise<Uint8Array> {
    const pages = this.#doc.getPages();
    pages.forEach((page, index) => {
      const size = 8;
      const footer = this.fit(this.#footer, CONTENT_WIDTH - 60, { size });
      page.drawText(footer, { x: MARGIN, y: MARGIN - 10, size, font: this.#regular, color: GREY });
      const number = `Page ${index + 1}/${pages.length}`;
      page.drawText(number, {
        x: MARGIN + CONTENT_WIDTH - this.#regular.widthOfTextAtSize(number, size),
        y: MARGIN - 10,
        size,
        font: this.#regular,
        color: GREY,
      });
    });
    return this.#doc.save();
  }
}
