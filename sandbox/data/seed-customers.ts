import type { Customer, CustomerContact } from '../../shared/api/customers.ts';
import { ambiguousEmail, demoCustomers } from './demo.ts';
import { prefixedUuid } from './ids.ts';
import type { SandboxData } from './model.ts';
import {
  addressNear,
  companyName,
  emailFor,
  firstNames,
  lastNames,
  mobilePhone,
} from './people.ts';
import type { Random } from './random.ts';
import { shopIds } from './referentials.ts';
import { DAY, between, iso } from './time.ts';

/**
 * Seeds customers, stored complete (contact and internal comments), demo customers first.
 * Customers have existed for a while: their sales, cases and credits come later in their lives.
 */

export const RANDOM_CUSTOMERS = 60;

const internalComments = [
  'Cliente fidèle depuis plusieurs années, préfère être appelée le matin.',
  'Litige de livraison en 2024 réglé par un geste commercial ; rester attentif.',
  'Ne pas relancer par SMS : demande explicite du client.',
  'Accès livraison difficile : 3e étage sans ascenseur, prévoir deux livreurs.',
  'Préfère les échanges écrits ; joignable surtout après 18 h.',
  'Client très exigeant sur les délais de réparation, prévenir dès réception des pièces.',
] as const;

interface CustomerDraft {
  uuid: string;
  typeCustomer: Customer['typeCustomer'];
  firstName: string | null;
  lastName: string | null;
  shopId: string;
  contact: CustomerContact;
  internalComments: string | null;
}

function complete(random: Random, now: number, draft: CustomerDraft): Customer {
  const { contact } = draft;
  const reachable = contact.email !== null || contact.phone !== null;
  const communication = !reachable
    ? 'none'
    : random.weighted([
        [contact.email === null ? 'none' : 'email', 5],
        [contact.phone === null ? 'none' : 'sms', 3],
        ['post', 1],
        ['none', 1],
      ] as const);
  // Long-standing customers: old enough to have up to 18 months of sales after their creation.
  const createdAt = between(random, now - 6 * 365 * DAY, now - 560 * DAY);
  return {
    uuid: draft.uuid,
    typeCustomer: draft.typeCustomer,
    firstName: draft.firstName,
    lastName: draft.lastName,
    shopId: draft.shopId,
    billingDifferentAddress: random.chance(draft.typeCustomer === 'company' ? 0.5 : 0.1),
    communication,
    emailCommunication: communication === 'email' || (contact.email !== null && random.chance(0.3)),
    phoneCommunication: communication === 'sms' || (contact.phone !== null && random.chance(0.3)),
    personalInformations: reachable && random.chance(0.85),
    createdAt: iso(createdAt),
    updatedAt: iso(between(random, createdAt, now - DAY)),
    contact,
    internalComments: draft.internalComments,
  };
}

function contactFor(random: Random, shopId: string, email: string | null): CustomerContact {
  return { email, phone: mobilePhone(random), ...addressNear(random, shopId) };
}

function demoDrafts(random: Random): CustomerDraft[] {
  const moreauAddress = addressNear(random, shopIds.nantes);
  const moreauContact = (): CustomerContact => ({
    email: ambiguousEmail.email,
    phone: mobilePhone(random),
    ...moreauAddress,
  });
  return [
    {
      uuid: demoCustomers.main,
      typeCustomer: 'individual',
      firstName: 'Hélène',
      lastName: 'Lefèvre',
      shopId: shopIds.lyon,
      contact: {
        email: 'helene.lefevre@example.com',
        phone: '+33 6 12 34 56 78',
        address: '12 rue de la République',
        postalCode: '69002',
        city: 'Lyon',
      },
      internalComments:
        'Cliente fidèle depuis 2019, préfère être appelée le matin. Garde ses factures en PDF.',
    },
    {
      uuid: demoCustomers.company,
      typeCustomer: 'company',
      firstName: 'François',
      lastName: 'Boulangerie Garçon SARL',
      shopId: shopIds.paris,
      contact: {
        email: 'contact@boulangerie-garcon.example.com',
        phone: '+33 7 45 12 98 03',
        address: '4 rue de Rivoli',
        postalCode: '75004',
        city: 'Paris',
      },
      internalComments:
        'Client professionnel : facturer au nom de la société, paiement à 30 jours.',
    },
    // A couple sharing the family address: an exact e-mail search cannot tell them apart.
    {
      uuid: demoCustomers.sharedEmailFirst,
      typeCustomer: 'individual',
      firstName: 'Claire',
      lastName: 'Moreau',
      shopId: shopIds.nantes,
      contact: moreauContact(),
      internalComments: null,
    },
    {
      uuid: demoCustomers.sharedEmailSecond,
      typeCustomer: 'individual',
      firstName: 'Julien',
      lastName: 'Moreau',
      shopId: shopIds.nantes,
      contact: moreauContact(),
      internalComments:
        'Même adresse e-mail que Claire Moreau : vérifier le prénom avant toute opération.',
    },
    {
      uuid: demoCustomers.withoutContact,
      typeCustomer: 'individual',
      firstName: 'Noël',
      lastName: 'Bérard',
      shopId: shopIds.marseille,
      contact: { email: null, phone: null, address: null, postalCode: null, city: null },
      internalComments: null,
    },
  ];
}

function randomDraft(random: Random, shops: readonly string[]): CustomerDraft {
  const shopId = random.pick(shops);
  const firstName = random.pick(firstNames);
  const company = random.chance(0.1);
  const lastName = company ? companyName(random) : random.pick(lastNames);
  const contact = contactFor(
    random,
    shopId,
    random.chance(0.9) ? emailFor(random, firstName, company ? 'pro' : lastName) : null,
  );
  if (random.chance(0.1)) contact.phone = null;
  if (random.chance(0.05)) {
    contact.address = null;
    contact.postalCode = null;
    contact.city = null;
  }
  return {
    uuid: prefixedUuid('customer', random),
    typeCustomer: company ? 'company' : 'individual',
    firstName,
    lastName,
    shopId,
    contact,
    internalComments: random.chance(0.3) ? random.pick(internalComments) : null,
  };
}

export function seedCustomers(data: SandboxData, random: Random, now: number): void {
  const shops = data.shops.map((shop) => shop.id);
  for (const draft of demoDrafts(random))
    data.customers.set(draft.uuid, complete(random, now, draft));
  for (let i = 0; i < RANDOM_CUSTOMERS; i++) {
    const customer = complete(random, now, randomDraft(random, shops));
    data.customers.set(customer.uuid, customer);
  }
}
