import { type Scope, scopes as allScopes } from '../../shared/api/scopes.ts';

/**
 * The integration accounts of the sandbox. Their e-mails and passwords are deterministic and
 * public (printed at start-up): this is a local playground, not a vault. Scopes and revocation are
 * mutable through the control surface and read on every request.
 */

export interface AccountDefinition {
  readonly id: string;
  readonly email: string;
  readonly password: string;
  readonly description: string;
  readonly scopes: readonly Scope[];
}

export interface Account {
  readonly id: string;
  readonly email: string;
  readonly password: string;
  scopes: Set<Scope>;
  revoked: boolean;
}

/** What start-up prints and `startSandbox` returns: enough to log in. */
export interface AccountCredentials {
  readonly email: string;
  readonly password: string;
  readonly scopes: readonly Scope[];
}

const except = (...left: Scope[]): Scope[] => allScopes.filter((scope) => !left.includes(scope));

export const seededAccounts: readonly AccountDefinition[] = [
  {
    id: 'account_all',
    email: 'kiosk-all@sandbox.test',
    password: 'sandbox-all',
    description: 'every scope',
    scopes: [...allScopes],
  },
  {
    id: 'account_catalog',
    email: 'kiosk-catalog@sandbox.test',
    password: 'sandbox-catalog',
    description: 'catalogue only',
    scopes: ['products:read', 'stock:read', 'referentials:read'],
  },
  {
    id: 'account_readonly',
    email: 'kiosk-readonly@sandbox.test',
    password: 'sandbox-readonly',
    description: 'read-only, without personal data and without internal comments',
    scopes: allScopes.filter(
      (scope) =>
        scope.endsWith(':read') &&
        scope !== 'customers:pii:read' &&
        scope !== 'internal-comments:read',
    ),
  },
  {
    id: 'account_no_gift_card_write',
    email: 'kiosk-no-gift-card-write@sandbox.test',
    password: 'sandbox-no-gift-card-write',
    description: 'every scope but gift-cards:write',
    scopes: except('gift-cards:write'),
  },
  {
    // The conditional scope rules of the product routes (availableOnly, shopId, include=stock)
    // can only be exercised by an account that may read products but not stock.
    id: 'account_products_no_stock',
    email: 'kiosk-products-no-stock@sandbox.test',
    password: 'sandbox-products-no-stock',
    description: 'products:read and referentials:read, without stock:read',
    scopes: ['products:read', 'referentials:read'],
  },
  {
    id: 'account_ping',
    email: 'kiosk-ping@sandbox.test',
    password: 'sandbox-ping',
    description: 'no business scope (ping only)',
    scopes: [],
  },
];

export class AccountStore {
  readonly #accounts = new Map<string, Account>();
  readonly #definitions: readonly AccountDefinition[];

  constructor(definitions: readonly AccountDefinition[] = seededAccounts) {
    this.#definitions = definitions;
    this.reset();
  }

  /** Back to the seeded scopes, nothing revoked. */
  reset(): void {
    this.#accounts.clear();
    for (const definition of this.#definitions) {
      this.#accounts.set(definition.id, {
        id: definition.id,
        email: definition.email,
        password: definition.password,
        scopes: new Set(definition.scopes),
        revoked: false,
      });
    }
  }

  byId(id: string): Account | undefined {
    return this.#accounts.get(id);
  }

  /** E-mails compare case-insensitively, as logins usually do. */
  byEmail(email: string): Account | undefined {
    const wanted = email.trim().toLowerCase();
    for (const account of this.#accounts.values()) if (account.email === wanted) return account;
    return undefined;
  }

  list(): readonly Account[] {
    return [...this.#accounts.values()];
  }

  credentials(): AccountCredentials[] {
    return this.list().map(({ email, password, scopes }) => ({
      email,
      password,
      scopes: [...scopes],
    }));
  }
}
