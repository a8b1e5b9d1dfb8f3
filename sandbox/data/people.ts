import type { Random } from './random.ts';
import { shopIds } from './referentials.ts';

/**
 * French names and addresses for demo customers. Accented names on purpose: e-mail local parts are
 * derived without accents (as people actually type them), names keep theirs.
 */

export const firstNames = [
  'Hélène',
  'Camille',
  'Léa',
  'Chloé',
  'Manon',
  'Inès',
  'Zoé',
  'Anaïs',
  'Élodie',
  'Sophie',
  'Claire',
  'Nathalie',
  'Julien',
  'Nicolas',
  'Thomas',
  'Mathéo',
  'Loïc',
  'Jérôme',
  'François',
  'Stéphane',
  'Benoît',
  'Théo',
  'Noël',
  'Gaëlle',
  'Maëlle',
  'Céline',
  'Aurélien',
  'Rémi',
  'Frédéric',
  'Agnès',
] as const;

export const lastNames = [
  'Martin',
  'Bernard',
  'Dubois',
  'Lefèvre',
  'Moreau',
  'Girard',
  'Mercier',
  'Bérard',
  'Rousseau',
  'Faure',
  'Lemaître',
  'Chevalier',
  'Gauthier',
  'Perrin',
  'Boucher',
  'Garçon',
  'Lacroix',
  'Barbier',
  'Ménard',
  'Benoît',
  'Roussel',
  'Carré',
  'Héraud',
  'Noël',
  'Léger',
] as const;

const companies = [
  'Boulangerie Garçon SARL',
  'Hôtel du Lac SAS',
  'Crèche Les Petits Pas',
  'Cabinet Ménard & Associés',
  'Brasserie de la Gare',
  'Camping Les Pins SARL',
] as const;

const streets = [
  'rue de la République',
  'avenue Jean-Jaurès',
  'boulevard Victor-Hugo',
  'rue du Général-de-Gaulle',
  'place de la Liberté',
  'rue des Écoles',
  'impasse des Tilleuls',
  'chemin du Moulin',
  'rue Émile-Zola',
  'allée des Châtaigniers',
  'quai de la Fontaine',
  'rue de la Gare',
] as const;

/** Postal code and town around each shop: customers live near the shop they use. */
const localities: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  [shopIds.lyon]: [
    ['69003', 'Lyon'],
    ['69100', 'Villeurbanne'],
    ['69500', 'Bron'],
    ['69130', 'Écully'],
  ],
  [shopIds.paris]: [
    ['75001', 'Paris'],
    ['75011', 'Paris'],
    ['92100', 'Boulogne-Billancourt'],
    ['93100', 'Montreuil'],
  ],
  [shopIds.bordeaux]: [
    ['33000', 'Bordeaux'],
    ['33400', 'Talence'],
    ['33700', 'Mérignac'],
    ['33130', 'Bègles'],
  ],
  [shopIds.lille]: [
    ['59000', 'Lille'],
    ['59700', 'Marcq-en-Barœul'],
    ['59650', 'Villeneuve-d’Ascq'],
    ['59100', 'Roubaix'],
  ],
  [shopIds.nantes]: [
    ['44000', 'Nantes'],
    ['44800', 'Saint-Herblain'],
    ['44400', 'Rezé'],
    ['44300', 'Nantes'],
  ],
  [shopIds.marseille]: [
    ['13002', 'Marseille'],
    ['13008', 'Marseille'],
    ['13100', 'Aix-en-Provence'],
    ['13600', 'La Ciotat'],
  ],
};

const mailDomains = ['example.com', 'example.org', 'example.net'] as const;

export function companyName(random: Random): string {
  return random.pick(companies);
}

/** `hélène.lefèvre` -> `helene.lefevre`; z.email() only accepts ASCII local parts. */
export function mailLocalPart(...words: string[]): string {
  return words
    .join('.')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/-+/g, '-');
}

export function emailFor(random: Random, firstName: string, lastName: string): string {
  const suffix = random.chance(0.4) ? String(random.int(1, 99)) : '';
  return `${mailLocalPart(firstName, lastName)}${suffix}@${random.pick(mailDomains)}`;
}

/** A French mobile number in international notation: `+33 6 12 34 56 78`. */
export function mobilePhone(random: Random): string {
  const pairs = Array.from({ length: 4 }, () => String(random.int(0, 99)).padStart(2, '0'));
  return `+33 ${random.pick(['6', '7'])} ${pairs.join(' ')}`;
}

export function addressNear(
  random: Random,
  shopId: string,
): { address: string; postalCode: string; city: string } {
  const [postalCode, city] = random.pick(localities[shopId] ?? [['75001', 'Paris']]);
  return { address: `${random.int(1, 140)} ${random.pick(streets)}`, postalCode, city };
}
