import type { Handlers } from '../handler.ts';
import { authHandlers } from './auth.ts';
import { catalogHandlers } from './catalog.ts';
import { customerHandlers } from './customers.ts';
import { giftCardHandlers } from './gift-cards.ts';
import { productHandlers } from './products.ts';
import { referentialHandlers } from './referentials.ts';
import { saleHandlers } from './sales.ts';
import { savHandlers } from './sav.ts';

/** One handler per operation of the contract; the type refuses a missing one. */
export const handlers: Handlers = {
  ...authHandlers,
  ...catalogHandlers,
  ...productHandlers,
  ...referentialHandlers,
  ...customerHandlers,
  ...saleHandlers,
  ...savHandlers,
  ...giftCardHandlers,
};
