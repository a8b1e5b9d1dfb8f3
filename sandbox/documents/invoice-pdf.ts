import type { Shop } from '../../shared/api/referentials.ts';
import type { Invoice, Sale } from '../../shared/api/sales.ts';
import { formatDate, formatDateTime, formatEuros } from './french-format.ts';
import { CONTENT_WIDTH, PdfWriter } from './pdf-writer.ts';
import { CHAIN_NAME, saleStatusLabel, shopLines } from './document-labels.ts';

/**
 * The invoice PDF of `GET /v1/sales/{saleId}/invoice`: invoice and sale numbers, dates, shop,
 * customer, lines and totals, all as the service computed them (nothing is recomputed here).
 * It prints what it is given: a customer contact block appears only if the sale passed in has
 * one, so the caller decides what personal data the document may carry.
 */
export async function renderInvoicePdf(
  sale: Sale,
  invoice: Invoice,
  shop: Shop | undefined,
): Promise<Uint8Array> {
  const pdf = await PdfWriter.create({
    title: `Facture ${invoice.number}`,
    subject: `Facture ${invoice.number} de la vente ${sale.number}`,
    date: new Date(invoice.issuedAt),
    footer: `${CHAIN_NAME} – facture ${invoice.number} – document de démonstration sans valeur comptable`,
  });

  pdf.row([
    { text: CHAIN_NAME, x: 0, width: 300, size: 16, bold: true },
    { text: 'FACTURE', x: 300, width: CONTENT_WIDTH - 300, size: 16, bold: true, align: 'right' },
  ]);
  pdf.space(4);
  const left = shopLines(shop);
  const right = [
    `Facture n° ${invoice.number}`,
    `Émise le ${formatDateTime(invoice.issuedAt)}`,
    `Vente n° ${sale.number}`,
    `Date de la vente : ${formatDate(sale.date)}`,
  ];
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    pdf.row([
      { text: left[i] ?? '', x: 0, width: 260, grey: i > 0 },
      { text: right[i] ?? '', x: 260, width: CONTENT_WIDTH - 260, align: 'right', bold: i === 0 },
    ]);
  }

  pdf.space(12);
  if (sale.customer !== null) {
    const name = [sale.customer.firstName, sale.customer.lastName]
      .filter((part) => part !== null)
      .join(' ');
    pdf.line('Client', { bold: true });
    pdf.line(name || 'Client sans nom');
    const contact = sale.customer.contact;
    if (contact) {
      if (contact.address !== null) pdf.line(contact.address);
      const town = [contact.postalCode, contact.city].filter((part) => part !== null).join(' ');
      if (town !== '') pdf.line(town);
      if (contact.email !== null) pdf.line(contact.email, { grey: true });
    }
  } else {
    pdf.line('Client : vente au comptoir', { bold: true });
  }

  pdf.space(12);
  const columns = { label: 0, reference: 245, quantity: 335, unit: 370, total: 435 } as const;
  const header = { bold: true, size: 9 } as const;
  pdf.row([
    { ...header, text: 'Désignation', x: columns.label, width: 240 },
    { ...header, text: 'Référence', x: columns.reference, width: 85 },
    { ...header, text: 'Qté', x: columns.quantity, width: 30, align: 'right' },
    { ...header, text: 'PU TTC', x: columns.unit, width: 60, align: 'right' },
    {
      ...header,
      text: 'Total TTC',
      x: columns.total,
      width: CONTENT_WIDTH - columns.total,
      align: 'right',
    },
  ]);
  pdf.rule();
  for (const line of sale.lines) {
    pdf.row([
      { text: line.label, x: columns.label, width: 240, size: 9 },
      { text: line.reference ?? '', x: columns.reference, width: 85, size: 9, grey: true },
      { text: String(line.quantity), x: columns.quantity, width: 30, size: 9, align: 'right' },
      {
        text: formatEuros(line.unitPriceInclTax),
        x: columns.unit,
        width: 60,
        size: 9,
        align: 'right',
      },
      {
        text: formatEuros(line.totalInclTax),
        x: columns.total,
        width: CONTENT_WIDTH - columns.total,
        size: 9,
        align: 'right',
      },
    ]);
  }
  pdf.rule();

  const amount = (label: string, value: string, bold = false) =>
    pdf.row([
      { text: label, x: 260, width: 160, bold },
      { text: value, x: 420, width: CONTENT_WIDTH - 420, align: 'right', bold },
    ]);
  amount('Total HT', formatEuros(sale.totals.exclTax));
  amount('TVA', formatEuros(sale.totals.vat));
  amount('Total TTC', formatEuros(sale.totals.inclTax), true);
  pdf.space(6);
  for (const credit of sale.creditsUsed ?? []) {
    amount(
      credit.type === 'gift_card' ? 'dont carte cadeau' : 'dont avoir',
      formatEuros(credit.amount),
    );
  }
  amount('Montant réglé', formatEuros(sale.amountPaid));
  amount('Reste à payer', formatEuros(sale.remainingToPay), sale.remainingToPay > 0);
  pdf.space(12);
  pdf.line(`Statut de la vente : ${saleStatusLabel(sale.status)}`, { grey: true, size: 9 });
  pdf.paragraph(
    'Garantie légale de conformité de 2 ans. Conservez cette facture : elle vous sera demandée pour toute prise en charge SAV.',
    { grey: true, size: 8 },
  );
  return pdf.save();
}
