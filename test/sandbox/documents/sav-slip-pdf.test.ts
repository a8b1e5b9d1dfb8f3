import { describe, expect, test } from 'vitest';
import type { Sav } from '../../../shared/api/sav.ts';
import { demoSav, seedData } from '../../../sandbox/data/seed.ts';
import { renderSavSlipPdf } from '../../../sandbox/documents/sav-slip-pdf.ts';
import { readPdf, startsLikePdf } from './pdf-tools.ts';

const data = seedData({ seed: 1, now: new Date('2026-03-15T10:00:00.000Z') });

function savCase(id: string): Sav {
  const sav = data.sav.get(id);
  if (sav === undefined) throw new Error(`no SAV case ${id}`);
  return sav;
}

const shopOf = (sav: Sav) => data.shops.find((shop) => shop.id === sav.shopId);

describe('renderSavSlipPdf', () => {
  test('a valid A4 PDF with the SAV number, item, status, issue, deposits and the whole log', async () => {
    const sav = savCase(demoSav.inRepair);
    const log = data.savLogs.get(sav.uuid) ?? [];
    const bytes = await renderSavSlipPdf(sav, log, shopOf(sav));
    expect(startsLikePdf(bytes)).toBe(true);
    const { text, info } = await readPdf(bytes);
    expect(info['Page size']).toMatch(/A4/);
    expect(info.Title).toBe(`Dossier SAV ${sav.number}`);
    expect(text).toContain(sav.number);
    expect(text).toContain('Statut : En réparation');
    expect(text).toContain(sav.item.serialNumber ?? '');
    expect(text).toContain('E18');
    expect(text).toContain('Acomptes versés');
    expect(text).toContain('Hélène Lefèvre');
    expect(log.length).toBe(4);
    for (const entry of log)
      expect(text.replace(/\s+/g, ' ')).toContain(entry.message.replace(/\s+/g, ' ').slice(0, 25));
    // Oldest first, as the log is.
    expect(text.indexOf('Ouvert ')).toBeLessThan(text.indexOf('En réparation '));
  });

  test('every seeded case renders and its number is extractable', async () => {
    for (const sav of data.sav.values()) {
      const { text } = await readPdf(
        await renderSavSlipPdf(sav, data.savLogs.get(sav.uuid) ?? [], shopOf(sav)),
      );
      expect(text).toContain(sav.number);
    }
  });

  test('a case without customer, deposits, log or shop still renders', async () => {
    const sav: Sav = { ...savCase(demoSav.open), customer: null, deposits: [], shopId: null };
    const { text } = await readPdf(await renderSavSlipPdf(sav, [], undefined));
    expect(text).toContain(sav.number);
    expect(text).toContain('Client non renseigné');
    expect(text).toContain('Aucune étape enregistrée.');
    expect(text).not.toContain('Acomptes versés');
  });
});
