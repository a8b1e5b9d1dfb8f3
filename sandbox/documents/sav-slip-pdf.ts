import type { Shop } from '../../shared/api/referentials.ts';
import type { Sav, SavLogEntry } from '../../shared/api/sav.ts';
import { CHAIN_NAME, savStatusLabel, shopLines } from './document-labels.ts';
import { formatDateTime, formatEuros } from './french-format.ts';
import { CONTENT_WIDTH, PdfWriter } from './pdf-writer.ts';

/**
 * The SAV slip PDF (the after-sales "bon de prise en charge"): case number, shop, customer, the
 * appliance, the issue, the deposits and the public log, oldest first. Like the invoice, it prints
 * what it is given (contact data and deposits only if the record passed in carries them).
 */
export async function renderSavSlipPdf(
  sav: Sav,
  log: SavLogEntry[],
  shop: Shop | undefined,
): Promise<Uint8Array> {
  const pdf = await PdfWriter.create({
    title: `Dossier SAV ${sav.number}`,
    subject: `Bon de prise en charge SAV ${sav.number}`,
    date: new Date(sav.updatedAt),
    footer: `${CHAIN_NAME} – dossier ${sav.number} – conservez ce bon, il vous sera demandé au retrait de l’appareil`,
  });

  pdf.row([
    { text: CHAIN_NAME, x: 0, width: 240, size: 16, bold: true },
    {
      text: 'PRISE EN CHARGE SAV',
      x: 240,
      width: CONTENT_WIDTH - 240,
      size: 16,
      bold: true,
      align: 'right',
    },
  ]);
  pdf.space(4);
  const left = shopLines(shop);
  const right = [
    `Dossier n° ${sav.number}`,
    `Ouvert le ${formatDateTime(sav.createdAt)}`,
    `Mis à jour le ${formatDateTime(sav.updatedAt)}`,
    `Statut : ${savStatusLabel(sav.status)}`,
  ];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    pdf.row([
      { text: left[i] ?? '', x: 0, width: 240, grey: i > 0 },
      {
        text: right[i] ?? '',
        x: 240,
        width: CONTENT_WIDTH - 240,
        align: 'right',
        bold: i === 0 || i === 3,
      },
    ]);
  }

  pdf.space(12);
  pdf.line('Client', { bold: true });
  if (sav.customer === null) pdf.line('Client non renseigné');
  else {
    pdf.line(
      [sav.customer.firstName, sav.customer.lastName].filter((part) => part !== null).join(' ') ||
        'Client sans nom',
    );
    const phone = sav.customer.contact?.phone ?? null;
    if (phone !== null) pdf.line(`Téléphone : ${phone}`, { grey: true });
  }

  pdf.space(10);
  pdf.line('Appareil', { bold: true });
  pdf.paragraph(sav.item.label);
  if (sav.item.reference !== null) pdf.line(`Référence : ${sav.item.reference}`, { grey: true });
  if (sav.item.serialNumber !== null)
    pdf.line(`N° de série : ${sav.item.serialNumber}`, { grey: true });

  pdf.space(10);
  pdf.line('Panne déclarée', { bold: true });
  pdf.paragraph(sav.issue);

  if (sav.deposits !== undefined && sav.deposits.length > 0) {
    pdf.space(10);
    pdf.line('Acomptes versés', { bold: true });
    for (const deposit of sav.deposits) {
      pdf.row([
        { text: formatDateTime(deposit.receivedAt), x: 0, width: 110 },
        { text: deposit.method, x: 110, width: 200 },
        { text: formatEuros(deposit.amount), x: 310, width: CONTENT_WIDTH - 310, align: 'right' },
      ]);
    }
  }

  pdf.space(10);
  pdf.line('Suivi du dossier', { bold: true });
  pdf.rule();
  const messageX = 210;
  for (const entry of log) {
    const lines = pdf.wrap(entry.message, CONTENT_WIDTH - messageX, { size: 9 });
    pdf.row([
      { text: formatDateTime(entry.at), x: 0, width: 90, size: 9 },
      { text: savStatusLabel(entry.status), x: 95, width: 110, size: 9, bold: true },
      { text: lines[0] ?? '', x: messageX, width: CONTENT_WIDTH - messageX, size: 9 },
    ]);
    for (const rest of lines.slice(1))
      pdf.row([{ text: rest, x: messageX, width: CONTENT_WIDTH - messageX, size: 9 }]);
  }
  if (log.length === 0) pdf.line('Aucune étape enregistrée.', { grey: true, size: 9 });
  return pdf.save();
}
