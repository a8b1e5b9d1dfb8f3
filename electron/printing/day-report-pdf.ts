import { PDFDocument, PageSizes, StandardFonts, type PDFFont } from 'pdf-lib';
import { callerReferenceOf } from '../../shared/ipc/caller-reference.ts';
import { dayReportTotals } from '../../shared/ipc/day-report-totals.ts';
import { debitStates, type DayReport, type DebitView } from '../../shared/ipc/gift-cards.ts';
import type { DayReportLabels } from '../../shared/ipc/printing.ts';
import { verifyPdf, type VerifiedPdf } from './document.ts';

export type { DayReportLabels };

const [WIDTH, HEIGHT] = PageSizes.A4;
const MARGIN = 40;
const SIZE = 9;
const LEADING = 13;
/** Column widths in points, summing to the page between margins (515): the resolution longest. */
const WIDTHS = {
  time: 40,
  amount: 60,
  card: 85,
  sale: 85,
  state: 60,
  offline: 60,
  resolution: 125,
} as const;
type Column = keyof typeof WIDTHS;
const COLUMNS = Object.keys(WIDTHS) as Column[];

/**
 * The end-of-day report as a printable PDF: a table of every debit of the day under column
 * headers, with its state, the offline ones marked and how staff resolved those refused after
 * the fact, then the totals by state. The words come from the caller (the renderer's catalogue,
 * in the kiosk's language); the date, times and amounts are formatted here with Intl in that
 * language. Cards show their masked number only and sales the reference staff gave, never the
 * kiosk's internal ids.
 */
export async function dayReportPdf(
  report: DayReport,
  labels: DayReportLabels,
): Promise<VerifiedPdf> {
  const doc = await PDFDocument.create();
  const day = new Intl.DateTimeFormat(labels.locale, { dateStyle: 'full', timeZone: 'UTC' }).format(
    new Date(`${report.date}T00:00:00Z`),
  );
  doc.setTitle(`${labels.title} ${report.date}`);
  // A fixed creation date: the same report always gives the same bytes.
  doc.setCreationDate(new Date(`${report.date}T00:00:00Z`));
  doc.setModificationDate(new Date(`${report.date}T00:00:00Z`));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  // Standard fonts encode WinAnsi only; Intl's narrow spaces and anything else become plain.
  const charset = new Set(font.getCharacterSet());
  const encodable = (text: string) =>
    [...text.replace(/[\u202f\u00a0]/g, ' ')]
      .map((char) => (charset.has(char.codePointAt(0)!) ? char : '?'))
      .join('');
  const money = new Intl.NumberFormat(labels.locale, { style: 'currency', currency: 'EUR' });
  const integer = new Intl.NumberFormat(labels.locale);
  const time = new Intl.DateTimeFormat(labels.locale, { timeStyle: 'short' });

  let page = doc.addPage(PageSizes.A4);
  let y = HEIGHT - MARGIN;
  const room = (size: number) => {
    if (y >= MARGIN + size) return;
    page = doc.addPage(PageSizes.A4);
    y = HEIGHT - MARGIN;
  };
  /** A cell's text in lines that fit its column: a cell never runs into the next one. */
  const wrap = (text: string, width: number, face: PDFFont): string[] => {
    const fits = (candidate: string) => face.widthOfTextAtSize(candidate, SIZE) <= width - 4;
    const lines: string[] = [];
    let current = '';
    for (const word of encodable(text).split(' ')) {
      const candidate = current === '' ? word : `${current} ${word}`;
      if (fits(candidate)) {
        current = candidate;
        continue;
      }
      if (current !== '') lines.push(current);
      current = word;
      // A word wider than its column (a long reference) is cut where it must be.
      while (!fits(current) && current.length > 1) {
        let cut = current.length - 1;
        while (cut > 1 && !fits(current.slice(0, cut))) cut--;
        lines.push(current.slice(0, cut));
        current = current.slice(cut);
      }
    }
    if (current !== '') lines.push(current);
    return lines;
  };
  const heading = (text: string, size: number) => {
    room(size + 8);
    page.drawText(encodable(text), { x: MARGIN, y, size, font: bold });
    y -= size + 8;
  };
  /** One row of cells, each wrapped to its width; the row as tall as its tallest cell. */
  const line = (cells: readonly (readonly [string, number])[], face: PDFFont) => {
    const wrapped = cells.map(([text, width]) => [wrap(text, width, face), width] as const);
    const height = Math.max(1, ...wrapped.map(([lines]) => lines.length)) * LEADING;
    room(height);
    let x = MARGIN;
    for (const [lines, width] of wrapped) {
      lines.forEach((text, index) =>
        page.drawText(text, { x, y: y - index * LEADING, size: SIZE, font: face }),
      );
      x += width;
    }
    y -= height;
  };
  const row = (cells: Readonly<Record<Column, string>>, face: PDFFont) =>
    line(
      COLUMNS.map((column) => [cells[column], WIDTHS[column]] as const),
      face,
    );
  /** The totals' columns: the state's name needs more room than a time. */
  const totalLine = (state: string, count: string, amount: string, face: PDFFont) =>
    line(
      [
        [state, 140],
        [count, 60],
        [amount, 80],
      ],
      face,
    );

  heading(labels.title, 14);
  heading(day, 11);
  if (report.debits.length === 0) {
    line([[labels.empty, WIDTH - 2 * MARGIN]], font);
    return verifyPdf(await doc.save({ useObjectStreams: false }));
  }
  const { count: _count, ...headers } = labels.columns;
  row(headers, bold);
  const resolutionOf = (debit: DebitView) =>
    debit.staffResolution
      ? [
          labels.resolutions[debit.staffResolution.kind],
          debit.staffResolution.method && labels.methods[debit.staffResolution.method],
          time.format(new Date(debit.staffResolution.at)),
        ]
          .filter(Boolean)
          .join(' ')
      : debit.needsAttention
        ? labels.needsAttention
        : '';
  for (const debit of report.debits) {
    row(
      {
        time: time.format(new Date(debit.createdAt)),
        amount: money.format(debit.amount),
        card: debit.maskedNumber ?? labels.cardNotRead,
        sale: callerReferenceOf(debit.reference) ?? labels.noSaleReference,
        state: labels.states[debit.state],
        offline: debit.acceptedOffline ? labels.offline : '',
        resolution: resolutionOf(debit),
      },
      debit.needsAttention === true ? bold : font,
    );
  }
  y -= LEADING / 2;
  heading(labels.totals, 11);
  totalLine(labels.columns.state, labels.columns.count, labels.columns.amount, bold);
  for (const total of dayReportTotals(report.debits, debitStates)) {
    totalLine(
      labels.states[total.state],
      integer.format(total.count),
      money.format(total.amount),
      font,
    );
  }
  return verifyPdf(await doc.save({ useObjectStreams: false }));
}
