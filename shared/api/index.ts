/** The Commerce External API V1 contract: schemas, the operations table and the error model. */
export * from './auth.ts';
export * from './catalog.ts';
export * from './customer-vocabulary.ts';
export * from './customers.ts';
export * from './errors.ts';
export * from './gift-cards.ts';
export * from './not-shown.ts';
export * from './operation.ts';
export * from './operations.ts';
export * from './pagination.ts';
export * from './primitives.ts';
export * from './products.ts';
export * from './referentials.ts';
export * from './sales.ts';
export * from './sav.ts';
export * from './scopes.ts';
