import { z } from 'zod';

/** The fourteen scope names of the spec's Authentication section. */
export const scopes = [
  'products:read',
  'stock:read',
  'referentials:read',
  'customers:read',
  'customers:write',
  'customers:pii:read',
  'customers:pii:write',
  'internal-comments:read',
  'sales:read',
  'orders:read',
  'sav:read',
  'customer-credits:read',
  'gift-cards:read',
  'gift-cards:write',
] as const;

export const Scope = z.enum(scopes);
export type Scope = z.infer<typeof Scope>;
