/**
 * The customer routes' words and limits, apart from their schemas: the kiosk page takes these
 * for its forms, and importing them does not build the schemas (customers.ts builds every one of
 * them as it is evaluated).
 */

export const customerTypes = ['individual', 'company'] as const;

export const communicationChannels = ['none', 'email', 'sms', 'post'] as const;

export const customerIncludes = ['contact', 'internalComments'] as const;

/** Longest value of each customer filter and search criterion (assumed: not in the spec). */
export const criterionMaxLength = {
  email: 300,
  phone: 64,
  lastName: 300,
  firstName: 300,
  postalCode: 16,
} as const;

export const creditTypes = ['credit_note', 'gift_card'] as const;

export const historyFamilies = ['sales', 'orders', 'sav', 'credits'] as const;
