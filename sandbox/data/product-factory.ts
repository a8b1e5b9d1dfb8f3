import type { z } from 'zod';
import type {
  AvailabilityStatus,
  CharacteristicEntry,
  ItemEntry,
  Media,
  Price,
} from '../../shared/api/catalog.ts';
import type { Shop } from '../../shared/api/referentials.ts';
import { stockInStatus } from './availability.ts';
import type { CatalogContext } from './catalog-context.ts';
import {
  commonSentences,
  energyClasses,
  itemConditions,
  productTemplates,
  repairabilityScores,
  warranties,
} from './catalog-templates.ts';
import type { ProductTemplate } from './catalog-templates.ts';
import { ean13ForSerial } from './ean.ts';
import { flat, prefixedHex } from './ids.ts';
import type { StoredProduct } from './model.ts';
import { priceFromCents, retailCents, unpricedPrice } from './money.ts';
import type { Random } from './random.ts';
import { brandSupplier } from './referentials.ts';
import { dateOnly, iso } from './time.ts';

/**
 * Builds one catalogue product with its items, for the seed and for store activity alike.
 * `features` forces the traits the demo must always show (each availability status, a hidden
 * product, null fields...) on a few well-known products; everything else is drawn at random.
 */

export interface ProductFeatures {
  firstItemStatus?: AvailabilityStatus;
  inEveryShop?: boolean;
  hidden?: boolean;
  withoutName?: boolean;
  withoutDescription?: boolean;
  withoutCategory?: boolean;
  unpriced?: boolean;
  allPromoted?: boolean;
  itemWithoutShop?: boolean;
}

export interface ProductSpec {
  id: string;
  /** Makes the EAN and the reference unique. */
  serial: number;
  /** Creation instant (ms); items and `updatedAt` fall between it and `until`. */
  createdAt: number;
  /** The latest instant anything of the product may be dated (ms). */
  until: number;
  /** The product type to make; random when absent. */
  template?: ProductTemplate;
  features?: ProductFeatures;
}

const statusWeights: readonly (readonly [AvailabilityStatus, number])[] = [
  ['available', 62],
  ['out_of_stock', 12],
  ['sold', 7],
  ['reserved', 7],
  ['withdrawn', 6],
  ['unsalable', 6],
];

const promotionRates = [0.1, 0.15, 0.2, 0.25, 0.3] as const;

type Entry = z.infer<typeof CharacteristicEntry>;
type PriceValue = z.infer<typeof Price>;

/** A model code that looks like a manufacturer's: "WGG24409FR", "QE55Q60". */
function modelCode(random: Random): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXZ';
  const parts: (string | number)[] = [];
  for (let i = random.int(2, 3); i > 0; i--)
    parts.push(letters[random.int(0, letters.length - 1)] ?? 'X');
  parts.push(random.int(100, 99999), random.pick(['', '', 'FR', 'EU', 'X', 'B']));
  return flat(...parts);
}

/** Descriptions are combinations of a few sentences: each distinct one is built once and shared. */
const descriptions = new Map<string, string>();

function describe(random: Random, template: ProductTemplate): string {
  const typeSentence = random.int(0, template.sentences.length - 1);
  const first = random.int(0, commonSentences.length - 1);
  const second = random.chance(0.4) ? random.int(0, commonSentences.length - 1) : first;
  const key = `${template.typeId}:${typeSentence}:${first}:${second}`;
  let text = descriptions.get(key);
  if (text === undefined) {
    text = [
      ...new Set([
        template.sentences[typeSentence],
        commonSentences[first],
        commonSentences[second],
      ]),
    ].join(' ');
    descriptions.set(key, text);
  }
  return text;
}

/** A promotion price strictly below `baseCents` (null when the base is too low to discount). */
export function promotionCents(random: Random, baseCents: number): number | null {
  const promo = retailCents(
    (baseCents / 100) * (1 - random.pick(promotionRates)),
    random.pick([99, 90] as const),
  );
  return promo < baseCents ? promo : null;
}

/** Never fetched: the kiosk shows them, the sandbox does not serve them. */
export function mediaUrl(productId: string, name: string): string {
  return flat('https://cdn.example.test/products/', productId, '/', name, '.jpg');
}

export function mediaFor(productId: string, count: number): z.infer<typeof Media>[] {
  return Array.from({ length: count }, (_, index) => ({
    type: 'image' as const,
    url: mediaUrl(productId, String(index + 1)),
    isMain: index === 0,
  }));
}

function productCharacteristics(
  ctx: CatalogContext,
  random: Random,
  template: ProductTemplate,
  brand: string,
  spec: string | null,
): Entry[] {
  const entries = [ctx.entry('marque', brand)];
  if (template.spec && spec !== null) entries.push(ctx.entry(template.spec.code, spec));
  if (template.power) entries.push(ctx.entry('puissance', random.pick(template.power)));
  if (template.energyClass)
    entries.push(ctx.entry('classe_energetique', random.pick(energyClasses)));
  entries.push(ctx.entry('garantie', random.pick(warranties)));
  if (template.repairability)
    entries.push(ctx.entry('indice_reparabilite', random.pick(repairabilityScores)));
  return [...entries]; // exact size (see the items below)
}

interface ItemPlan {
  shop: Shop | null;
  status: AvailabilityStatus;
  condition: (typeof itemConditions)[number];
}

function planItems(
  ctx: CatalogContext,
  random: Random,
  features: ProductFeatures,
  showcase: boolean,
): ItemPlan[] {
  const shopCount = features.inEveryShop
    ? ctx.shops.length
    : random.weighted([
        [1, 15],
        [2, 25],
        [3, 30],
        [4, 20],
        [ctx.shops.length, 10],
      ]);
  const shops: (Shop | null)[] = random.sample(ctx.shops, shopCount);
  // A few items sit in the central warehouse, outside any shop (the item's shop is nullable).
  if (features.itemWithoutShop || (!showcase && random.chance(0.02))) shops.push(null);
  const plans: ItemPlan[] = [];
  for (const shop of shops) {
    plans.push({ shop, status: random.weighted(statusWeights), condition: 'Neuf' });
    // Some shops also hold a display unit or a refurbished one of the same product.
    if (shop !== null && random.chance(0.12)) {
      plans.push({
        shop,
        status: random.weighted(statusWeights),
        condition: random.pick(['Exposition', 'Reconditionné'] as const),
      });
    }
  }
  const first = plans[0];
  if (first !== undefined && features.firstItemStatus !== undefined)
    first.status = features.firstItemStatus;
  if (features.inEveryShop && features.firstItemStatus === 'available') {
    for (const plan of plans) plan.status = 'available';
  }
  return plans;
}

export function createProduct(
  ctx: CatalogContext,
  random: Random,
  spec: ProductSpec,
): StoredProduct {
  const features = spec.features ?? {};
  // A showcase product has exactly its forced traits: no random null field or hidden flag on top.
  const showcase = spec.features !== undefined;
  const maybe = (probability: number) => !showcase && random.chance(probability);
  const template = spec.template ?? random.pick(productTemplates);
  const brand = random.pick(template.brands);
  const stem = random.pick(template.stems);
  const model = modelCode(random);
  const specValue = template.spec ? random.pick(template.spec.values) : null;
  const name =
    specValue === null
      ? flat(stem, ' ', brand, ' ', model)
      : flat(stem, ' ', brand, ' ', model, ' ', specValue);
  const characteristics = productCharacteristics(ctx, random, template, brand, specValue);
  const reference = flat(
    template.typeCode.slice(0, 3),
    '-',
    brand.slice(0, 3).toUpperCase(),
    '-',
    String(spec.serial).padStart(6, '0'),
  );

  const [minEuros, maxEuros] = template.priceEuros;
  // Skewed towards the low end of the band, as real assortments are.
  const baseCents = retailCents(minEuros + (maxEuros - minEuros) * random.next() ** 2);
  const unpriced = features.unpriced === true || maybe(0.01);
  const promoted = !unpriced && (features.allPromoted === true || random.chance(0.18));
  const colour = random.pick(template.colours);

  // Items with the same colour and condition share one characteristics array.
  const itemCharacteristics: { colour: string; condition: string; entries: Entry[] }[] = [];
  let latest = spec.createdAt;
  const basePrice = unpriced ? unpricedPrice() : priceFromCents(baseCents);
  // map, not push: arrays grown by push keep a 17-slot backing store, too much times 370k items.
  const items = planItems(ctx, random, features, showcase).map((plan, index): ItemEntry => {
    let price: PriceValue = basePrice;
    let itemCents = baseCents;
    if (!unpriced && random.chance(0.15)) {
      // A shop-specific price, a few percent off the national one.
      itemCents = retailCents((baseCents / 100) * random.float(0.93, 1.05));
      price = priceFromCents(itemCents);
    }
    let promotionPrice: PriceValue | null = null;
    if (
      !unpriced &&
      (features.allPromoted || plan.condition !== 'Neuf' || (promoted && random.chance(0.75)))
    ) {
      const promo = promotionCents(random, itemCents);
      if (promo !== null) promotionPrice = priceFromCents(promo);
    }
    const stock = stockInStatus(random, plan.status);
    const updatedAt = spec.createdAt + Math.floor(random.next() * (spec.until - spec.createdAt));
    if (updatedAt > latest) latest = updatedAt;
    const itemColour =
      plan.condition === 'Neuf' && random.chance(0.8) ? colour : random.pick(template.colours);
    let entries = itemCharacteristics.find(
      (c) => c.colour === itemColour && c.condition === plan.condition,
    )?.entries;
    if (entries === undefined) {
      entries = [
        ...characteristics,
        ctx.entry('coloris', itemColour),
        ctx.entry('etat', plan.condition),
      ];
      itemCharacteristics.push({ colour: itemColour, condition: plan.condition, entries });
    }
    return {
      uuid: prefixedHex('item', random),
      code: random.chance(0.05) ? null : flat(reference, '-', index + 1),
      price,
      promotionPrice,
      quantity: stock.quantity,
      availability: stock.availability,
      shop: plan.shop === null ? null : ctx.shopRef(plan.shop),
      characteristics: entries,
      inStockDate:
        plan.status === 'out_of_stock'
          ? null
          : dateOnly(spec.createdAt + Math.floor((updatedAt - spec.createdAt) / 2)),
      updatedAt: iso(updatedAt),
    };
  });

  const withoutCategory = features.withoutCategory === true || maybe(0.01);
  const supplierId = brandSupplier[brand];
  return {
    uuid: spec.id,
    reference,
    ean: maybe(0.01) ? null : ean13ForSerial(spec.serial),
    name: features.withoutName === true || maybe(0.005) ? null : name,
    description:
      features.withoutDescription === true || maybe(0.01) ? null : describe(random, template),
    displayedOnline: features.hidden === true ? false : !maybe(0.08),
    quantityType: maybe(0.03) ? null : 'unit',
    category: withoutCategory ? null : ctx.categoryRef(template.categoryId),
    productType: withoutCategory ? null : ctx.productTypeRef(template.typeId),
    media: mediaFor(spec.id, random.int(1, 4)),
    updatedAt: iso(latest),
    supplier: supplierId === undefined || maybe(0.03) ? null : ctx.supplierRef(supplierId),
    characteristics,
    items,
  };
}

/** A fresh product id; the `prod_` prefix then opaque hex. */
export function newProductId(random: Random): string {
  return prefixedHex('prod', random);
}
