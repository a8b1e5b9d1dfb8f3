import { describe, expect, test } from 'vitest';
import type { Invoice, Sale } from '../../../shared/api/sales.ts';
import { demoSales, seedData } from '../../../sandbox/data/seed.ts';
import { formatEuros } from '../../../sandbox/documents/french-format.ts';
import { renderInvoicePdf } from '../../../sandbox/documents/invoice-pdf.ts';
import { readPdf, startsLikePdf } from './pdf-tools.ts';

const data = seedData({ seed: 1, now: new Date('2026-03-15T10:00:00.000Z') });

function invoiced(saleId: string): { sale: Sale; invoice: Invoice } {
  const sale = data.sales.get(saleId);
  const invoice = data.invoices.get(saleId);
  if (sale === undefined || invoice === undefined) throw new Error(`no invoiced sale ${saleId}`);
  return { sale, invoice };
}

const shopOf = (sale: Sale) => data.shops.find((shop) => shop.id === sale.shopId);

describe('renderInvoicePdf', () => {
  test('a valid A4 PDF whose text carries the numbers, shop, customer, lines and totals', async () => {
    const { sale, invoice } = invoiced(demoSales.withCredits);
    const bytes = await renderInvoicePdf(sale, invoice, shopOf(sale));
    expect(startsLikePdf(bytes)).toBe(true);
    const { text, info } = await readPdf(bytes);
    expect(info['Page size']).toMatch(/^595\.\d+ x 841\.\d+ pts \(A4\)$/);
    expect(info.Title).toBe(`Facture ${invoice.number}`);
    expect(text).toContain(sale.number);
    expect(text).toContain(invoice.number);
    expect(text).toContain('Lyon Part-Dieu');
    expect(text).toContain('Hélène Lefèvre');
    expect(text).toContain(formatEuros(sale.totals.inclTax));
    expect(text).toContain(formatEuros(sale.totals.vat));
    expect(text).toContain('dont carte cadeau');
    for (const line of sale.lines) expect(text).toContain(line.reference ?? '');
  });

  test('every invoiced demo sale renders; the same record gives the same bytes', async () => {
    const { sale, invoice } = invoiced(demoSales.withInvoice);
    const first = await renderInvoicePdf(sale, invoice, shopOf(sale));
    const second = await renderInvoicePdf(sale, invoice, shopOf(sale));
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const { text } = await readPdf(first);
    expect(text).toContain(sale.number);
    expect(text).toMatch(/Émise le \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
  });

  test('characters the standard fonts lack do not break the document; long sales flow onto more pages', async () => {
    const { sale, invoice } = invoiced(demoSales.withInvoice);
    const strange = '1\u202f234\u00a0€ – œuvre ’ ő → 😀';
    const line = { ...sale.lines[0], label: `Libellé ${strange}` } as Sale['lines'][number];
    const long: Sale = { ...sale, customer: null, lines: Array.from({ length: 90 }, () => line) };
    const bytes = await renderInvoicePdf(long, invoice, undefined);
    const { text, info } = await readPdf(bytes);
    expect(Number(info.Pages)).toBeGreaterThanOrEqual(2);
    expect(text).toContain(`Page 2/${info.Pages}`);
    expect(text).toContain('Libellé 1 234 € – œuvre ’ o ? ?');
    expect(text).toContain('Magasin non précisé');
    expect(text).toContain('vente au comptoir');
    expect(text).toContain(sale.number);
  });
});

describe('formatEuros', () => {
  test('French format with plain spaces, never the narrow no-break space', () => {
    expect(formatEuros(1280.98)).toBe('1 280,98 €');
    expect(formatEuros(4.5)).toBe('4,50 €');
    expect(formatEuros(0)).toBe('0,00 €');
    expect(formatEuros(1234567.891)).toBe('1 234 567,89 €');
    expect(formatEuros(-12.3)).toBe('-12,30 €');
  });
});
