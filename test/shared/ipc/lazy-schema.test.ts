import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema } from '../../../shared/ipc/lazy-schema.ts';

const plain = () => z.strictObject({ name: z.string().min(2), count: z.number().int() });

describe('lazySchema', () => {
  it('builds nothing until read, then once', () => {
    let builds = 0;
    const schema = lazySchema(() => {
      builds++;
      return plain();
    });
    const outer = z.object({ inner: schema });
    expect(builds).toBe(0);
    expect(outer.safeParse({ inner: { name: 'ab', count: 1 } }).success).toBe(true);
    expect(schema.parse({ name: 'cd', count: 2 })).toEqual({ name: 'cd', count: 2 });
    expect(Object.keys(schema.shape)).toEqual(['name', 'count']);
    expect(builds).toBe(1);
  });

  it('refuses and reports exactly as the schema it stands for', () => {
    const schema = lazySchema(plain);
    const bad = { name: 'a', count: 1.5, extra: true };
    expect(schema.safeParse(bad).error?.issues).toEqual(plain().safeParse(bad).error?.issues);
    expect(() => schema.parse(bad)).toThrow(z.ZodError);
  });

  it('hands out methods that work detached, and is the kind of schema it builds', () => {
    const schema = lazySchema(plain);
    const { safeParse } = schema;
    expect(safeParse({ name: 'ab', count: 3 }).success).toBe(true);
    expect(schema.safeParse).toBe(safeParse);
    expect(schema).toBeInstanceOf(z.ZodObject);
    expect(schema.optional().safeParse(undefined).success).toBe(true);
    expect(schema.extend({ more: z.boolean() }).safeParse({ name: 'ab', count: 1 }).success).toBe(
      false,
    );
  });
});

describe('the contract', () => {
  it('builds no schema when imported, and a message reply schema when used', async () => {
    // IpcError registers its id when it is built: the registry says whether it was.
    const built = () => z.globalRegistry._idmap.has('IpcError');
    const { ipcMessages, ipcResultOf } = await import('../../../shared/ipc/index.ts');
    expect(built()).toBe(false);
    const reply = ipcResultOf(ipcMessages.getSettings.reply);
    expect(reply.safeParse({ ok: false, error: { code: 'X', message: 'no' } }).success).toBe(true);
    expect(built()).toBe(true);
  });
});
