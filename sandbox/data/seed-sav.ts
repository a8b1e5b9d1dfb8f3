import type { z } from 'zod';
import type { Customer } from '../../shared/api/customers.ts';
import type { Sale } from '../../shared/api/sales.ts';
import type { Sav, SavDeposit, SavLogEntry } from '../../shared/api/sav.ts';
import { demoCustomers, demoSales, demoSav } from './demo.ts';
import { documentNumber, prefixedUuid } from './ids.ts';
import type { SandboxData, StoredProduct } from './model.ts';
import { fromCents } from './money.ts';
import type { Random } from './random.ts';
import { customerSummary } from './sale-drafts.ts';
import { DAY, HOUR, MINUTE, between, daysAgoAt, iso, yearOf } from './time.ts';

/**
 * After-sales cases: an appliance brought back to a shop, its issue, the deposits paid, and the
 * public log of the statuses it went through (always a prefix of the repair workflow, oldest first).
 */

export const RANDOM_SAV = 25;

type SavStatus = Sav['status'];

const logMessages: Record<SavStatus, readonly string[]> = {
  open: [
    'Dossier ouvert : appareil déposé au comptoir SAV du magasin.',
    'Prise en charge de l’appareil, bon de dépôt remis au client.',
  ],
  diagnosis: [
    'Diagnostic en cours par notre technicien.',
    'Appareil en cours d’examen à l’atelier.',
  ],
  waiting_parts: [
    'Pièce commandée auprès du fabricant, délai estimé : 10 jours.',
    'En attente de la pièce détachée (carte électronique).',
  ],
  in_repair: ['Réparation en cours à l’atelier.', 'Pièce reçue, réparation en cours.'],
  ready: [
    'Appareil réparé et testé : disponible au retrait en magasin.',
    'Réparation terminée, le client a été prévenu par SMS.',
  ],
  closed: [
    'Appareil restitué au client, dossier clôturé.',
    'Échange standard effectué, dossier clôturé.',
  ],
  cancelled: [
    'Dossier annulé à la demande du client.',
    'Devis refusé par le client, appareil restitué en l’état.',
  ],
};

/** Reported faults by kind of appliance, so that a case's issue fits its item. */
const issuesByFamily: Record<string, readonly string[]> = {
  washing: [
    'Le lave-linge ne vidange plus et affiche le code erreur E18.',
    'Fuite d’eau sous la porte en fin de cycle.',
    'Bruit anormal et vibrations pendant l’essorage.',
    'Le programme s’arrête en cours de cycle avec un code erreur.',
  ],
  cold: [
    'Le réfrigérateur ne refroidit plus, le congélateur fonctionne.',
    'Givre excessif dans le compartiment congélation.',
    'Le joint de porte est décollé, la porte ferme mal.',
  ],
  cooking: [
    'Le four ne chauffe plus et le ventilateur reste bloqué.',
    'Un foyer ne chauffe plus, les autres fonctionnent.',
    'Le plateau ne tourne plus et l’appareil fait un bruit de claquement.',
  ],
  small: [
    'Le broyeur à café se bloque et fait un bruit de claquement.',
    'Le moteur s’arrête au bout de quelques minutes d’utilisation.',
    'Fuite d’eau par le socle de l’appareil.',
  ],
  screen: [
    'L’écran reste noir mais le son fonctionne.',
    'Des lignes verticales apparaissent à l’écran.',
  ],
  audio: ['L’appareil ne se connecte plus en Bluetooth.', 'Le son grésille à volume moyen.'],
  computing: [
    'La batterie ne tient plus la charge (moins d’une heure).',
    'Écran fissuré après une chute.',
    'Le Wi-Fi se déconnecte toutes les quelques minutes.',
  ],
  climate: ['Ne produit plus de froid, seul le ventilateur tourne.'],
  any: [
    'L’appareil ne s’allume plus après une coupure de courant.',
    'Rayure constatée sur la façade à la livraison.',
  ],
};

const familyOfType: Readonly<Record<string, string>> = {
  LAVE_LINGE: 'washing',
  SECHE_LINGE: 'washing',
  LAVE_VAISSELLE: 'washing',
  REFRIGERATEUR: 'cold',
  CONGELATEUR: 'cold',
  FOUR: 'cooking',
  PLAQUE: 'cooking',
  MICRO_ONDES: 'cooking',
  CAFETIERE: 'small',
  ROBOT: 'small',
  BOUILLOIRE: 'small',
  MACHINE_GLACONS: 'small',
  ASPIRATEUR: 'small',
  CENTRALE_VAPEUR: 'small',
  TELEVISEUR: 'screen',
  BARRE_DE_SON: 'audio',
  CASQUE: 'audio',
  ORDINATEUR: 'computing',
  TABLETTE: 'computing',
  SMARTPHONE: 'computing',
  CLIMATISEUR: 'climate',
};

function issueFor(random: Random, typeCode: string | null | undefined): string {
  const family = typeCode ? familyOfType[typeCode] : undefined;
  const specific = family === undefined ? [] : (issuesByFamily[family] ?? []);
  return random.pick(
    specific.length > 0 && random.chance(0.85)
      ? specific
      : (issuesByFamily.any ?? ['Panne non précisée.']),
  );
}

const depositMethods = ['carte bancaire', 'espèces', 'chèque'] as const;

/** The statuses a case went through to reach `status`. */
function pathTo(random: Random, status: SavStatus): SavStatus[] {
  const partsDelay = random.chance(0.4);
  const repair: SavStatus[] = [
    'open',
    'diagnosis',
    ...(partsDelay ? (['waiting_parts'] as const) : []),
    'in_repair',
  ];
  switch (status) {
    case 'open':
      return ['open'];
    case 'diagnosis':
      return ['open', 'diagnosis'];
    case 'waiting_parts':
      return ['open', 'diagnosis', 'waiting_parts'];
    case 'in_repair':
      return repair;
    case 'ready':
      return [...repair, 'ready'];
    case 'closed':
      return [...repair, 'ready', 'closed'];
    case 'cancelled':
      return random.chance(0.5) ? ['open', 'cancelled'] : ['open', 'diagnosis', 'cancelled'];
  }
}

interface CasePlan {
  uuid: string;
  status: SavStatus;
  path?: SavStatus[];
  customer: Customer | null;
  /** The sale the appliance came from, or null when bought elsewhere. */
  sale: Sale | null;
  shopId: string | null;
  /** The reported fault; drawn to fit the item when absent. */
  issue?: string;
  /** Age of the first log entry, in ms before `now`. */
  age: number;
  deposit: boolean;
}

/** The appliance of the case (from its sale when there is one) and its product type code. */
function itemOf(
  random: Random,
  data: SandboxData,
  pool: readonly StoredProduct[],
  sale: Sale | null,
): { item: Sav['item']; typeCode: string | null } {
  const line = sale?.lines.find((l) => l.productId !== null);
  const product = line?.productId
    ? data.products.get(line.productId)
    : pool.length > 0
      ? random.pick(pool)
      : undefined;
  const serialNumber = random.chance(0.9) ? `SN${random.hex(10).toUpperCase()}` : null;
  const typeCode = product?.productType?.code ?? null;
  if (line)
    return { item: { label: line.label, reference: line.reference, serialNumber }, typeCode };
  if (product)
    return {
      item: {
        label: product.name ?? 'Appareil sans désignation',
        reference: product.reference,
        serialNumber,
      },
      typeCode,
    };
  return {
    item: { label: 'Lave-linge hublot', reference: null, serialNumber },
    typeCode: 'LAVE_LINGE',
  };
}

function build(
  random: Random,
  data: SandboxData,
  pool: readonly StoredProduct[],
  plan: CasePlan,
  now: number,
): { sav: Sav; log: SavLogEntry[] } {
  const path = plan.path ?? pathTo(random, plan.status);
  const log: SavLogEntry[] = [];
  // A case cannot open before the appliance was sold.
  const start = Math.max(
    now - plan.age,
    plan.sale === null ? -Infinity : Date.parse(plan.sale.date) + 2 * HOUR,
  );
  const gaps = path.map((_, index) => (index === 0 ? 0 : between(random, 4 * HOUR, 4 * DAY)));
  // A young case went through its steps faster: squeeze the gaps so the log ends before `now`.
  const room = Math.max(0, now - 10 * MINUTE - start);
  const total = gaps.reduce((sum, gap) => sum + gap, 0);
  const scale = total > room ? room / total : 1;
  let at = start;
  path.forEach((status, index) => {
    at += Math.floor((gaps[index] ?? 0) * scale);
    log.push({ at: iso(at), status, message: random.pick(logMessages[status]) });
  });
  const createdAt = Date.parse(log[0]?.at ?? iso(now));
  const { item, typeCode } = itemOf(random, data, pool, plan.sale);
  const deposits: z.infer<typeof SavDeposit>[] = [];
  if (plan.deposit) {
    deposits.push({
      id: prefixedUuid('deposit', random),
      amount: fromCents(random.pick([3900, 4900])),
      currency: 'EUR',
      receivedAt: iso(createdAt + random.int(1, 20) * MINUTE),
      method: random.pick(depositMethods),
    });
  }
  const sav: Sav = {
    uuid: plan.uuid,
    number: '',
    status: plan.status,
    saleId: plan.sale?.uuid ?? null,
    shopId: plan.shopId,
    customer: plan.customer === null ? null : customerSummary(plan.customer),
    item,
    issue: plan.issue ?? issueFor(random, typeCode),
    createdAt: iso(createdAt),
    updatedAt: log.at(-1)?.at ?? iso(createdAt),
    deposits,
  };
  return { sav, log };
}

export function seedSav(
  data: SandboxData,
  random: Random,
  pool: readonly StoredProduct[],
  now: number,
): void {
  const salesByCustomer = new Map<string, Sale[]>();
  for (const sale of data.sales.values()) {
    if (
      sale.customer === null ||
      sale.status === 'cancelled' ||
      !sale.lines.some((l) => l.productId !== null)
    )
      continue;
    const list = salesByCustomer.get(sale.customer.uuid) ?? [];
    list.push(sale);
    salesByCustomer.set(sale.customer.uuid, list);
  }
  const customer = (id: string) => data.customers.get(id) ?? null;
  const firstSale = (id: string) => salesByCustomer.get(id)?.[0] ?? null;
  const plans: CasePlan[] = [
    {
      uuid: demoSav.inRepair,
      status: 'in_repair',
      path: ['open', 'diagnosis', 'waiting_parts', 'in_repair'],
      customer: customer(demoCustomers.main),
      sale: data.sales.get(demoSales.withInvoice) ?? null,
      shopId: data.sales.get(demoSales.withInvoice)?.shopId ?? null,
      issue: 'Le lave-linge ne vidange plus et affiche le code erreur E18.',
      age: now - daysAgoAt(now, 20, 9, 50),
      deposit: true,
    },
    {
      uuid: demoSav.ready,
      status: 'ready',
      customer: customer(demoCustomers.company),
      sale: firstSale(demoCustomers.company),
      shopId: customer(demoCustomers.company)?.shopId ?? null,
      age: now - daysAgoAt(now, 15, 14, 25),
      deposit: false,
    },
    {
      uuid: demoSav.closed,
      status: 'closed',
      path: ['open', 'diagnosis', 'waiting_parts', 'in_repair', 'ready', 'closed'],
      customer: customer(demoCustomers.main),
      sale: firstSale(demoCustomers.main),
      shopId: customer(demoCustomers.main)?.shopId ?? null,
      age: now - daysAgoAt(now, 300, 11, 35),
      deposit: true,
    },
    {
      uuid: demoSav.open,
      status: 'open',
      customer: customer(demoCustomers.sharedEmailFirst),
      sale: null,
      shopId: customer(demoCustomers.sharedEmailFirst)?.shopId ?? null,
      age: 2 * HOUR,
      deposit: false,
    },
  ];
  const customers = [...data.customers.values()];
  for (let i = 0; i < RANDOM_SAV; i++) {
    const owner = random.pick(customers);
    const sales = salesByCustomer.get(owner.uuid) ?? [];
    const sale = sales.length > 0 && random.chance(0.8) ? random.pick(sales) : null;
    const status = random.weighted([
      ['open', 2],
      ['diagnosis', 2],
      ['waiting_parts', 2],
      ['in_repair', 2],
      ['ready', 2],
      ['closed', 5],
      ['cancelled', 1],
    ] as const);
    plans.push({
      uuid: prefixedUuid('sav', random),
      status,
      customer: owner,
      sale,
      shopId: sale?.shopId ?? owner.shopId,
      // Finished cases are older; a case's log spans at most ~20 days, so recent ones stay in the past.
      age:
        status === 'closed' || status === 'cancelled'
          ? between(random, 30 * DAY, 200 * DAY)
          : between(random, 3 * DAY, 25 * DAY),
      deposit: random.chance(0.4),
    });
  }

  const built = plans.map((plan) => build(random, data, pool, plan, now));
  built.sort((a, b) => Date.parse(a.sav.createdAt) - Date.parse(b.sav.createdAt));
  const sequences = new Map<number, number>();
  for (const { sav, log } of built) {
    const year = yearOf(Date.parse(sav.createdAt));
    const sequence = (sequences.get(year) ?? 20) + random.int(1, 8);
    sequences.set(year, sequence);
    sav.number = documentNumber('SAV', year, sequence, 5);
    data.sav.set(sav.uuid, sav);
    data.savLogs.set(sav.uuid, log);
  }
}
