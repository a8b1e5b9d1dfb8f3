import type { en } from './en.ts';

/** The key set is English's: fr.ts is typed with it, so a missing or extra key fails typecheck. */
export type MessageKey = keyof typeof en;
export type Catalogue = Readonly<Record<MessageKey, string>>;
