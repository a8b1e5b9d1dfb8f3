import type { CharacteristicValue } from '../../shared/api/referentials.ts';
import { characteristicId } from './referentials.ts';
import type { CharacteristicCode } from './referentials.ts';

/**
 * What the chain sells, one template per product type: how names are built, price bands, which
 * characteristics apply and the sentences descriptions are made of. French on purpose, accents
 * included (é, è, ç, à, œ): the kiosk's normalized search has to cope with them.
 */

export interface ProductTemplate {
  typeId: string;
  typeCode: string;
  typeLabel: string;
  categoryId: string;
  /** The opening words of the product name. */
  stems: readonly string[];
  brands: readonly string[];
  /** Shop price band, tax included, in euros. */
  priceEuros: readonly [number, number];
  /** The characteristic that also ends the name ("9 kg", "55 pouces"). */
  spec: {
    code: Extract<CharacteristicCode, 'capacite' | 'taille_ecran' | 'stockage'>;
    values: readonly string[];
  } | null;
  power: readonly string[] | null;
  energyClass: boolean;
  repairability: boolean;
  colours: readonly string[];
  sentences: readonly string[];
}

const appliancesColours = ['Blanc', 'Inox', 'Noir'] as const;
const smallColours = ['Noir', 'Blanc', 'Rouge', 'Gris anthracite', 'Bleu nuit'] as const;

export const productTemplates: readonly ProductTemplate[] = [
  {
    typeId: 'ptype_lave-linge',
    typeCode: 'LAVE_LINGE',
    typeLabel: 'Lave-linge',
    categoryId: 'category_lavage',
    stems: ['Lave-linge hublot', 'Lave-linge séchant', 'Lave-linge top'],
    brands: ['Bosch', 'Samsung', 'LG', 'Whirlpool', 'Miele', 'Brandt'],
    priceEuros: [349, 1199],
    spec: { code: 'capacite', values: ['8 kg', '9 kg', '10 kg', '11 kg'] },
    power: null,
    energyClass: true,
    repairability: true,
    colours: appliancesColours,
    sentences: [
      'Essorage jusqu’à 1400 tr/min et programme rapide de 15 minutes.',
      'Moteur à induction silencieux, idéal pour une famille de quatre personnes.',
      'Départ différé et programme spécial laine et délicat.',
    ],
  },
  {
    typeId: 'ptype_seche-linge',
    typeCode: 'SECHE_LINGE',
    typeLabel: 'Sèche-linge',
    categoryId: 'category_lavage',
    stems: ['Sèche-linge pompe à chaleur', 'Sèche-linge à condensation'],
    brands: ['Bosch', 'Siemens', 'Whirlpool', 'Miele', 'Brandt'],
    priceEuros: [399, 1099],
    spec: { code: 'capacite', values: ['8 kg', '9 kg'] },
    power: null,
    energyClass: true,
    repairability: true,
    colours: ['Blanc'],
    sentences: [
      'Séchage doux qui préserve les fibres, même pour le linge délicat.',
      'Filtre facile à nettoyer et réservoir d’eau accessible en façade.',
    ],
  },
  {
    typeId: 'ptype_lave-vaisselle',
    typeCode: 'LAVE_VAISSELLE',
    typeLabel: 'Lave-vaisselle',
    categoryId: 'category_lavage',
    stems: ['Lave-vaisselle encastrable', 'Lave-vaisselle pose libre'],
    brands: ['Bosch', 'Siemens', 'Miele', 'Whirlpool', 'De Dietrich'],
    priceEuros: [399, 1299],
    spec: { code: 'capacite', values: ['12 couverts', '13 couverts', '14 couverts'] },
    power: null,
    energyClass: true,
    repairability: true,
    colours: appliancesColours,
    sentences: [
      'Troisième panier à couverts et séchage par ouverture automatique de la porte.',
      'Niveau sonore de 42 dB : à peine audible depuis le séjour.',
    ],
  },
  {
    typeId: 'ptype_refrigerateur',
    typeCode: 'REFRIGERATEUR',
    typeLabel: 'Réfrigérateur',
    categoryId: 'category_froid',
    stems: ['Réfrigérateur combiné', 'Réfrigérateur américain', 'Réfrigérateur multiportes'],
    brands: ['Samsung', 'LG', 'Bosch', 'Whirlpool', 'Siemens'],
    priceEuros: [449, 2499],
    spec: { code: 'capacite', values: ['330 L', '360 L', '400 L', '550 L', '610 L'] },
    power: null,
    energyClass: true,
    repairability: true,
    colours: appliancesColours,
    sentences: [
      'Froid ventilé sans givre et distributeur d’eau et de glaçons en façade.',
      'Compartiment fraîcheur à 0 °C pour conserver plus longtemps fruits et légumes.',
      'Éclairage LED intérieur et clayettes en verre sécurit.',
    ],
  },
  {
    typeId: 'ptype_congelateur',
    typeCode: 'CONGELATEUR',
    typeLabel: 'Congélateur',
    categoryId: 'category_froid',
    stems: ['Congélateur armoire', 'Congélateur coffre'],
    brands: ['Bosch', 'Whirlpool', 'Brandt', 'Siemens'],
    priceEuros: [299, 999],
    spec: { code: 'capacite', values: ['200 L', '250 L', '280 L'] },
    power: null,
    energyClass: true,
    repairability: true,
    colours: ['Blanc', 'Inox'],
    sentences: [
      'Congélation rapide et alarme sonore en cas de porte ouverte.',
      'Tiroirs transparents pour retrouver ses surgelés d’un coup d’œil.',
    ],
  },
  {
    typeId: 'ptype_four',
    typeCode: 'FOUR',
    typeLabel: 'Four',
    categoryId: 'category_cuisson',
    stems: ['Four encastrable à pyrolyse', 'Four multifonction chaleur tournante'],
    brands: ['Bosch', 'Siemens', 'De Dietrich', 'Whirlpool', 'Miele'],
    priceEuros: [349, 1499],
    spec: { code: 'capacite', values: ['66 L', '71 L'] },
    power: null,
    energyClass: true,
    repairability: true,
    colours: ['Noir', 'Inox'],
    sentences: [
      'Nettoyage par pyrolyse : la graisse est réduite en cendres à 500 °C.',
      'Sonde de cuisson et rails télescopiques sur deux niveaux.',
    ],
  },
  {
    typeId: 'ptype_plaque',
    typeCode: 'PLAQUE',
    typeLabel: 'Plaque de cuisson',
    categoryId: 'category_cuisson',
    stems: ['Plaque de cuisson à induction', 'Table vitrocéramique'],
    brands: ['Bosch', 'Siemens', 'De Dietrich', 'Brandt'],
    priceEuros: [249, 999],
    spec: null,
    power: ['7200 W', '7400 W'],
    energyClass: false,
    repairability: true,
    colours: ['Noir'],
    sentences: [
      'Fonction booster pour porter l’eau à ébullition en moins de deux minutes.',
      'Commandes tactiles, minuterie par foyer et sécurité enfants.',
    ],
  },
  {
    typeId: 'ptype_micro-ondes',
    typeCode: 'MICRO_ONDES',
    typeLabel: 'Micro-ondes',
    categoryId: 'category_cuisson',
    stems: ['Micro-ondes gril', 'Micro-ondes combiné'],
    brands: ['Samsung', 'LG', 'Whirlpool', 'Brandt'],
    priceEuros: [89, 449],
    spec: { code: 'capacite', values: ['23 L', '25 L', '28 L'] },
    power: ['800 W', '900 W', '1000 W'],
    energyClass: false,
    repairability: false,
    colours: ['Noir', 'Blanc', 'Inox'],
    sentences: ['Décongélation automatique selon le poids et plateau tournant de 30 cm.'],
  },
  {
    typeId: 'ptype_cafetiere',
    typeCode: 'CAFETIERE',
    typeLabel: 'Cafetière',
    categoryId: 'category_preparation-culinaire',
    stems: ['Cafetière expresso broyeur', 'Cafetière à dosettes', 'Cafetière filtre programmable'],
    brands: ['Krups', 'De’Longhi', 'Philips', 'Seb', 'Moulinex'],
    priceEuros: [49, 999],
    spec: null,
    power: ['1000 W', '1450 W', '1500 W'],
    energyClass: false,
    repairability: true,
    colours: smallColours,
    sentences: [
      'Buse vapeur pour un lait mousseux : cappuccino et latte macchiato à la maison.',
      'Réservoir d’eau amovible de 1,7 L et broyeur à meules coniques.',
    ],
  },
  {
    typeId: 'ptype_robot',
    typeCode: 'ROBOT',
    typeLabel: 'Robot de cuisine',
    categoryId: 'category_preparation-culinaire',
    stems: ['Robot pâtissier', 'Robot cuiseur multifonction'],
    brands: ['Moulinex', 'Krups', 'Bosch', 'Philips'],
    priceEuros: [149, 1199],
    spec: { code: 'capacite', values: ['4,8 L', '5 L', '5,5 L'] },
    power: ['1000 W', '1200 W', '1500 W'],
    energyClass: false,
    repairability: true,
    colours: smallColours,
    sentences: [
      'Livré avec fouet, crochet pétrisseur et batteur pour brioches et génoises.',
      'Bol en inox compatible lave-vaisselle et livre de recettes en français.',
    ],
  },
  {
    typeId: 'ptype_bouilloire',
    typeCode: 'BOUILLOIRE',
    typeLabel: 'Bouilloire',
    categoryId: 'category_preparation-culinaire',
    stems: ['Bouilloire électrique', 'Bouilloire à température réglable'],
    brands: ['Seb', 'Tefal', 'Philips', 'Moulinex'],
    priceEuros: [25, 129],
    spec: { code: 'capacite', values: ['1,5 L', '1,7 L'] },
    power: ['2200 W', '2400 W'],
    energyClass: false,
    repairability: false,
    colours: smallColours,
    sentences: ['Filtre anticalcaire amovible et arrêt automatique à ébullition.'],
  },
  {
    typeId: 'ptype_machine-a-glacons',
    typeCode: 'MACHINE_GLACONS',
    typeLabel: 'Machine à glaçons',
    categoryId: 'category_preparation-culinaire',
    stems: ['Machine à glaçons'],
    brands: ['De’Longhi', 'Tefal', 'Brandt'],
    priceEuros: [119, 349],
    spec: { code: 'capacite', values: ['12 kg/24 h', '15 kg/24 h'] },
    power: ['120 W', '150 W'],
    energyClass: false,
    repairability: false,
    colours: ['Blanc', 'Noir', 'Inox'],
    sentences: [
      'Premiers glaçons en moins de dix minutes, idéale pour l’été et les apéritifs.',
      'Reçoit jusqu’à 1,8 L d’eau, sans raccordement nécessaire.',
    ],
  },
  {
    typeId: 'ptype_aspirateur',
    typeCode: 'ASPIRATEUR',
    typeLabel: 'Aspirateur',
    categoryId: 'category_entretien-maison',
    stems: ['Aspirateur balai sans fil', 'Aspirateur traîneau sans sac', 'Aspirateur robot laveur'],
    brands: ['Dyson', 'Rowenta', 'Philips', 'Samsung', 'Bosch'],
    priceEuros: [129, 899],
    spec: null,
    power: ['150 W', '250 W', '650 W'],
    energyClass: false,
    repairability: true,
    colours: smallColours,
    sentences: [
      'Autonomie jusqu’à 60 minutes et batterie remplaçable.',
      'Brosse spéciale poils d’animaux et filtration HEPA pour les allergiques.',
    ],
  },
  {
    typeId: 'ptype_centrale-vapeur',
    typeCode: 'CENTRALE_VAPEUR',
    typeLabel: 'Centrale vapeur',
    categoryId: 'category_entretien-maison',
    stems: ['Centrale vapeur haute pression', 'Fer à repasser vapeur'],
    brands: ['Rowenta', 'Philips', 'Tefal'],
    priceEuros: [39, 499],
    spec: null,
    power: ['2400 W', '2800 W'],
    energyClass: false,
    repairability: true,
    colours: ['Bleu nuit', 'Blanc', 'Noir'],
    sentences: ['Semelle glisse premium et système anticalcaire intégré.'],
  },
  {
    typeId: 'ptype_televiseur',
    typeCode: 'TELEVISEUR',
    typeLabel: 'Téléviseur',
    categoryId: 'category_televiseurs',
    stems: ['Téléviseur QLED 4K', 'Téléviseur OLED 4K', 'Téléviseur LED Full HD'],
    brands: ['Samsung', 'LG', 'Sony', 'Philips'],
    priceEuros: [299, 2999],
    spec: {
      code: 'taille_ecran',
      values: ['43 pouces', '50 pouces', '55 pouces', '65 pouces', '77 pouces'],
    },
    power: null,
    energyClass: true,
    repairability: true,
    colours: ['Noir'],
    sentences: [
      'Dalle 100 Hz idéale pour le sport et les jeux vidéo, compatible Dolby Vision.',
      'Smart TV avec les principales applications de streaming et commande vocale.',
      'Pied central réglable et fixation murale VESA.',
    ],
  },
  {
    typeId: 'ptype_barre-de-son',
    typeCode: 'BARRE_DE_SON',
    typeLabel: 'Barre de son',
    categoryId: 'category_audio',
    stems: ['Barre de son Dolby Atmos', 'Barre de son avec caisson'],
    brands: ['Sonos', 'Samsung', 'Sony', 'JBL', 'LG'],
    priceEuros: [149, 1299],
    spec: null,
    power: ['300 W', '450 W', '600 W'],
    energyClass: false,
    repairability: false,
    colours: ['Noir', 'Blanc'],
    sentences: ['Caisson de basses sans fil et mode dialogue pour des voix plus claires.'],
  },
  {
    typeId: 'ptype_casque',
    typeCode: 'CASQUE',
    typeLabel: 'Casque audio',
    categoryId: 'category_audio',
    stems: ['Casque à réduction de bruit', 'Écouteurs sans fil'],
    brands: ['Sony', 'Apple', 'JBL', 'Philips'],
    priceEuros: [49, 549],
    spec: null,
    power: null,
    energyClass: false,
    repairability: false,
    colours: smallColours,
    sentences: [
      'Réduction de bruit active et jusqu’à 30 heures d’écoute.',
      'Étui de recharge compact.',
    ],
  },
  {
    typeId: 'ptype_ordinateur',
    typeCode: 'ORDINATEUR',
    typeLabel: 'Ordinateur portable',
    categoryId: 'category_ordinateurs',
    stems: ['Ordinateur portable', 'PC ultraportable', 'PC portable gamer'],
    brands: ['Apple', 'Lenovo', 'Asus', 'Samsung'],
    priceEuros: [449, 2699],
    spec: { code: 'stockage', values: ['256 Go', '512 Go', '1 To'] },
    power: null,
    energyClass: false,
    repairability: true,
    colours: ['Gris anthracite', 'Noir', 'Blanc'],
    sentences: [
      'Écran 14 pouces haute définition et clavier AZERTY rétroéclairé.',
      'Jusqu’à 15 heures d’autonomie, recharge rapide par USB-C.',
    ],
  },
  {
    typeId: 'ptype_tablette',
    typeCode: 'TABLETTE',
    typeLabel: 'Tablette',
    categoryId: 'category_tablettes',
    stems: ['Tablette tactile'],
    brands: ['Apple', 'Samsung', 'Lenovo'],
    priceEuros: [179, 1399],
    spec: { code: 'stockage', values: ['64 Go', '128 Go', '256 Go'] },
    power: null,
    energyClass: false,
    repairability: true,
    colours: ['Gris anthracite', 'Blanc', 'Bleu nuit'],
    sentences: ['Écran 11 pouces, compatible stylet et clavier détachable.'],
  },
  {
    typeId: 'ptype_smartphone',
    typeCode: 'SMARTPHONE',
    typeLabel: 'Smartphone',
    categoryId: 'category_smartphones',
    stems: ['Smartphone 5G', 'Smartphone reconditionné'],
    brands: ['Apple', 'Samsung', 'Sony'],
    priceEuros: [149, 1599],
    spec: { code: 'stockage', values: ['128 Go', '256 Go', '512 Go'] },
    power: null,
    energyClass: false,
    repairability: true,
    colours: ['Noir', 'Blanc', 'Bleu nuit', 'Rouge'],
    sentences: [
      'Triple capteur photo et mode nuit, écran OLED 6,1 pouces.',
      'Résistant à l’eau et à la poussière (IP68), chargeur non fourni.',
    ],
  },
  {
    typeId: 'ptype_climatiseur',
    typeCode: 'CLIMATISEUR',
    typeLabel: 'Climatiseur',
    categoryId: 'category_climatisation',
    stems: ['Climatiseur mobile réversible', 'Ventilateur colonne'],
    brands: ['De’Longhi', 'Rowenta', 'Philips'],
    priceEuros: [59, 899],
    spec: null,
    power: ['1000 W', '2650 W'],
    energyClass: true,
    repairability: false,
    colours: ['Blanc'],
    sentences: ['Télécommande, programmation sur 24 heures et mode nuit silencieux.'],
  },
];

/** Sentences any product description may borrow from. */
export const commonSentences = [
  'Garantie 2 ans pièces et main-d’œuvre, extensible en magasin.',
  'Livraison et installation possibles depuis votre magasin.',
  'Reprise gratuite de l’ancien appareil lors de la livraison.',
  'Notice et garantie en français.',
  'Conçu pour durer : pièces détachées disponibles pendant 10 ans.',
  'Retrait en magasin sous 2 heures si le produit est en stock.',
] as const;

export const energyClasses = ['A', 'B', 'C', 'D', 'E', 'F'] as const;
export const warranties = ['2 ans', '3 ans', '5 ans'] as const;
export const repairabilityScores = ['6,2/10', '7,1/10', '7,8/10', '8,4/10', '9,0/10'] as const;
export const itemConditions = ['Neuf', 'Exposition', 'Reconditionné'] as const;

/** Every value each characteristic can take, deduplicated in first-seen order. */
export function characteristicValueLists(): Map<CharacteristicCode, string[]> {
  const lists = new Map<CharacteristicCode, Set<string>>();
  const add = (code: CharacteristicCode, values: readonly string[]) => {
    const set = lists.get(code) ?? new Set<string>();
    for (const value of values) set.add(value);
    lists.set(code, set);
  };
  for (const template of productTemplates) {
    add('marque', template.brands);
    if (template.spec) add(template.spec.code, template.spec.values);
    if (template.power) add('puissance', template.power);
    add('coloris', template.colours);
  }
  add('classe_energetique', energyClasses);
  add('garantie', warranties);
  add('indice_reparabilite', repairabilityScores);
  add('etat', itemConditions);
  return new Map([...lists].map(([code, set]) => [code, [...set]]));
}

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

export function createCharacteristicValues(): CharacteristicValue[] {
  const values: CharacteristicValue[] = [];
  for (const [code, list] of characteristicValueLists()) {
    for (const value of list) {
      values.push({
        id: `charval_${code}_${slug(value)}`,
        characteristicId: characteristicId(code),
        value,
      });
    }
  }
  return values;
}
