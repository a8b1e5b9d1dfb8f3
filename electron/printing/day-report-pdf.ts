import { PDFDocument, PageSizes, StandardFonts } from 'pdf-lib';
import type { DayReport } from '../../shared/ipc/gift-cards.ts';
import type { DayReportLabels } from '../../shared/ipc/printing.ts';
import { verifyPdf, type VerifiedPdf } from './document.ts';

export type { DayReportLabels };

const [WIDTH, HEIGHT] = PageSizes.A4;
const MARGIN = 40;
const SIZE = 9;
const LEADING = 13;

/**
 * The end-of-day report as a printable PDF: every debit of the day, one line each, with its
 * state, the offline ones marked and how staff resolved those refused after the fact. The words
 * come from the caller (the renderer's catalogue, in the kiosk's language); the figures are
 * formatted here with Intl in that language.
 */
export async function dayReportPdf(
  report: DayReport,
  labels: DayReportLabels,
): Promise<VerifiedPdf> {
  const doc = await PDFDocument.create();
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
  const time = new Intl.DateTimeFormat(labels.locale, { timeStyle: 'short' });

  let page = doc.addPage(PageSizes.A4);
  let y = HEIGHT - MARGIN;
  const line = (text: string, options: { bold?: boolean; size?: number } = {}) => {
    const size = options.size ?? SIZE;
    if (y < MARGIN + LEADING) {
      page = doc.addPage(PageSizes.A4);
      y = HEIGHT - MARGIN;
    }
    page.drawText(encodable(text), {
      x: MARGIN,
      y,
      size,
      font: options.bold ? bold : font,
      maxWidth: WIDTH - 2 * MARGIN,
    });
    y -= size === SIZE ? LEADING : size + 8;
  };

  line(`${labels.title} ${report.date}`, { bold: true, size: 14 });
  if (report.debits.length === 0) line(labels.empty);
  for (const debit of report.debits) {
    const card = debit.maskedNumber ?? `...${debit.giftCardId.slice(-4)}`;
    const resolution = debit.staffResolution
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
    line(
      [
        time.format(new Date(debit.createdAt)),
        money.format(debit.amount),
        card,
        debit.reference,
        labels.states[debit.state],
        debit.acceptedOffline ? labels.offline : '',
        resolution,
      ]
        .filter(Boolean)
        .join('  |  '),
      { bold: debit.needsAttention === true },
    );
  }
  return verifyPdf(await doc.save({ useObjectStreams: false }));
}
