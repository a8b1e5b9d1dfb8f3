import { expect, test } from 'vitest';
import { z } from 'zod';

test("the page's zod never probes for eval, which its CSP refuses", async () => {
  expect(z.config().jitless).not.toBe(true);
  await import('../../renderer/zod-under-csp.ts');
  expect(z.config().jitless).toBe(true);
  // Replies are checked as strictly without the compiled parser.
  const reply = z.strictObject({ ok: z.literal(true), value: z.number().int() });
  expect(reply.safeParse({ ok: true, value: 3 }).success).toBe(true);
  expect(reply.safeParse({ ok: true, value: 3, extra: 1 }).success).toBe(false);
});
