import type { z } from 'zod';
import type { SupplierRef } from '../../shared/api/catalog.ts';
import type { Category, Characteristic, ProductType, Shop } from '../../shared/api/referentials.ts';

/**
 * The fixed referentials of the demo chain (a home-electronics and appliance retailer): shops,
 * category tree, product types, characteristics and suppliers. They do not depend on the seed, so
 * their ids are stable and can be written in the documentation and in tests. Each call returns fresh
 * objects because store activity edits them in place.
 */

export const shopIds = {
  lyon: 'shop_lyon-part-dieu',
  paris: 'shop_paris-rivoli',
  bordeaux: 'shop_bordeaux-sainte-catherine',
  lille: 'shop_lille-euralille',
  nantes: 'shop_nantes-centre',
  marseille: 'shop_marseille-joliette',
} as const;

export function createShops(): Shop[] {
  return [
    {
      id: shopIds.lyon,
      name: 'Lyon Part-Dieu',
      shortName: 'LYON-PD',
      city: 'Lyon',
      postalCode: '69003',
    },
    {
      id: shopIds.paris,
      name: 'Paris Rivoli',
      shortName: 'PARIS-RIV',
      city: 'Paris',
      postalCode: '75001',
    },
    {
      id: shopIds.bordeaux,
      name: 'Bordeaux Sainte-Catherine',
      shortName: 'BDX-SC',
      city: 'Bordeaux',
      postalCode: '33000',
    },
    {
      id: shopIds.lille,
      name: 'Lille Euralille',
      shortName: 'LILLE',
      city: 'Lille',
      postalCode: '59777',
    },
    // No short name: the service allows it, and clients must cope.
    {
      id: shopIds.nantes,
      name: 'Nantes Centre',
      shortName: null,
      city: 'Nantes',
      postalCode: '44000',
    },
    {
      id: shopIds.marseille,
      name: 'Marseille La Joliette',
      shortName: 'MRS-JOL',
      city: 'Marseille',
      postalCode: '13002',
    },
  ];
}

export function createCategories(): Category[] {
  const c = (id: string, code: string, label: string, parentId: string | null): Category => ({
    id: `category_${id}`,
    code,
    label,
    parentId: parentId === null ? null : `category_${parentId}`,
  });
  return [
    c('electromenager', 'ELECTROMENAGER', 'Électroménager', null),
    c('lavage', 'LAVAGE', 'Lavage et séchage', 'electromenager'),
    c('froid', 'FROID', 'Réfrigération et congélation', 'electromenager'),
    c('cuisson', 'CUISSON', 'Cuisson', 'electromenager'),
    c('petit-electromenager', 'PEM', 'Petit électroménager', 'electromenager'),
    c('preparation-culinaire', 'PREPARATION', 'Préparation culinaire', 'petit-electromenager'),
    c('entretien-maison', 'ENTRETIEN', 'Entretien de la maison', 'petit-electromenager'),
    c('image-son', 'IMAGE_SON', 'Image et son', null),
    c('televiseurs', 'TV', 'Téléviseurs', 'image-son'),
    c('audio', 'AUDIO', 'Audio et hi-fi', 'image-son'),
    c('informatique', 'INFORMATIQUE', 'Informatique', null),
    c('ordinateurs', 'ORDINATEURS', 'Ordinateurs portables', 'informatique'),
    c('tablettes', 'TABLETTES', 'Tablettes', 'informatique'),
    c('telephonie', 'TELEPHONIE', 'Téléphonie', null),
    c('smartphones', 'SMARTPHONES', 'Smartphones', 'telephonie'),
    c('climatisation', 'CLIMATISATION', 'Chauffage et climatisation', null),
  ];
}

export function createSuppliers(): z.infer<typeof SupplierRef>[] {
  const s = (id: string, name: string, shortName: string | null) => ({
    id: `supplier_${id}`,
    name,
    shortName,
  });
  return [
    s('bsh', 'BSH Électroménager', 'BSH'),
    s('samsung', 'Samsung Electronics France', 'Samsung'),
    s('lg', 'LG Electronics France', 'LG'),
    s('whirlpool', 'Whirlpool France', 'Whirlpool'),
    s('miele', 'Miele France', 'Miele'),
    s('brandt', 'Groupe Brandt', null),
    s('seb', 'Groupe SEB France', 'SEB'),
    s('philips', 'Philips France', 'Philips'),
    s('sony', 'Sony France', 'Sony'),
    s('dyson', 'Dyson France', 'Dyson'),
    s('apple', 'Apple Distribution International', 'Apple'),
    s('delonghi', 'De’Longhi France', null),
    s('ingram', 'Ingram Micro France', 'Ingram'),
  ];
}

/** Brand -> supplier id: the chain buys each brand through one supplier. */
export const brandSupplier: Readonly<Record<string, string>> = {
  Bosch: 'supplier_bsh',
  Siemens: 'supplier_bsh',
  Samsung: 'supplier_samsung',
  LG: 'supplier_lg',
  Whirlpool: 'supplier_whirlpool',
  Miele: 'supplier_miele',
  Brandt: 'supplier_brandt',
  'De Dietrich': 'supplier_brandt',
  Seb: 'supplier_seb',
  Moulinex: 'supplier_seb',
  Rowenta: 'supplier_seb',
  Krups: 'supplier_seb',
  Tefal: 'supplier_seb',
  Philips: 'supplier_philips',
  Sony: 'supplier_sony',
  Dyson: 'supplier_dyson',
  Apple: 'supplier_apple',
  'De’Longhi': 'supplier_delonghi',
  Lenovo: 'supplier_ingram',
  Asus: 'supplier_ingram',
  Sonos: 'supplier_ingram',
  JBL: 'supplier_ingram',
};

/** Characteristic codes used by the templates; `source` says whether it describes the product or an item. */
export const characteristicDefinitions = [
  { code: 'marque', label: 'Marque', source: 'product' },
  { code: 'classe_energetique', label: 'Classe énergétique', source: 'product' },
  { code: 'capacite', label: 'Capacité', source: 'product' },
  { code: 'taille_ecran', label: 'Taille d’écran', source: 'product' },
  { code: 'stockage', label: 'Stockage', source: 'product' },
  { code: 'puissance', label: 'Puissance', source: 'product' },
  { code: 'garantie', label: 'Garantie', source: 'product' },
  { code: 'indice_reparabilite', label: 'Indice de réparabilité', source: 'product' },
  { code: 'coloris', label: 'Coloris', source: 'item' },
  { code: 'etat', label: 'État', source: 'item' },
] as const satisfies readonly Omit<Characteristic, 'id'>[];

export type CharacteristicCode = (typeof characteristicDefinitions)[number]['code'];

export function characteristicId(code: CharacteristicCode): string {
  return `char_${code}`;
}

export function createCharacteristics(): Characteristic[] {
  return characteristicDefinitions.map((definition) => ({
    id: characteristicId(definition.code),
    ...definition,
  }));
}

export function createProductTypes(
  templates: readonly { typeId: string; typeCode: string; typeLabel: string }[],
): ProductType[] {
  return templates.map((template) => ({
    id: template.typeId,
    code: template.typeCode,
    label: template.typeLabel,
  }));
}
