import { describe, expect, it } from 'vitest';
import { operationList, operations } from '../../../shared/api/index.ts';
import { specOperations } from './fixtures/spec-operations.ts';

/** The spec's operation list rows: method, path and the "Required scopes" column. */
const rows = specOperations
  .map(({ method, path, scopes }) => ({ key: `${method} ${path}`, scopes }))
  // "same as list of sales": the detail inherits the row above it.
  .map((row, index, all) =>
    row.scopes.startsWith('same as') ? { ...row, scopes: all[index - 1]!.scopes } : row,
  );
const scopeNames = (text: string) => text.match(/[a-z-]+:[a-z-]+(?::[a-z-]+)?/g) ?? [];

describe('scopes as data', () => {
  it('requires exactly the scopes before the first ";" of the spec column', () => {
    expect(rows).toHaveLength(30);
    for (const row of rows) {
      const operation = operationList.find((op) => `${op.method} ${op.path}` === row.key);
      expect(operation, row.key).toBeDefined();
      const required = scopeNames(row.scopes.split(';')[0]!);
      expect([...operation!.scopes.all].sort(), row.key).toEqual(required.sort());
    }
  });

  it('carries every scope the spec mentions after ";" as an any-of or conditional rule', () => {
    for (const row of rows) {
      const operation = operationList.find((op) => `${op.method} ${op.path}` === row.key)!;
      const conditional = [
        ...(operation.scopes.anyOf ?? []),
        ...(operation.scopes.conditional ?? []).flatMap((rule) => rule.scopes),
      ];
      for (const scope of scopeNames(row.scopes.split(';').slice(1).join(';'))) {
        expect(conditional, `${row.key} ${scope}`).toContain(scope);
      }
    }
  });

  it('states the conditional rules the sandbox and client rely on', () => {
    expect(operations.listProducts.scopes.conditional).toContainEqual(
      expect.objectContaining({
        scopes: ['stock:read'],
        effect: 'forbid',
        when: { queryIncludes: { param: 'include', values: ['stock'] } },
      }),
    );
    expect(
      operations.getGiftCard.scopes.conditional
        .filter((rule) => rule.effect === 'omit')
        .map((rule) => rule.block),
    ).toEqual(['customer', 'origin', 'usages', 'invoice']);
    expect(operations.getCustomerHistory.scopes.anyOf).toEqual([
      'sales:read',
      'orders:read',
      'sav:read',
      'customer-credits:read',
    ]);
    expect(operations.authenticate.auth).toBe('none');
    expect(operationList.filter((op) => op.auth === 'none')).toHaveLength(1);
  });
});
