/** The renderer <-> main contract: messages, events, errors. Pure TypeScript and zod. */
export * from './catalog.ts';
export * from './common.ts';
export * from './contract.ts';
export * from './customers.ts';
export * from './errors.ts';
export * from './events.ts';
export * from './gift-cards.ts';
export * from './message.ts';
export * from './printing.ts';
export * from './records.ts';
export * from './documents.ts';
export * from './sales.ts';
export * from './status.ts';
export * from './loopback.ts';
