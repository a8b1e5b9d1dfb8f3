import { afterEach, beforeEach, expect, it } from 'vitest';
import { OPEN, ATTENTION_STATES } from '../../../electron/outbox/state-sql.ts';
import { tempDataDir } from './support.ts';

/**
 * The state sets as SQL, written once: the open set must read exactly as the open rows' partial
 * index says it, or the planner stops using that index (and `INDEXED BY` refuses to run).
 */

let data: ReturnType<typeof tempDataDir>;
beforeEach(() => {
  data = tempDataDir();
});
afterEach(() => data.cleanup());

it("the open set is the open rows' index condition, word for word; the attention states are their own set", () => {
  const db = data.open();
  const index = db.connection
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'outbox_debits_open'`)
    .get() as { sql: string };
  expect(index.sql).toContain(`WHERE ${OPEN}`);
  expect(OPEN).toBe(`state IN ('pending', 'sending')`);
  expect(ATTENTION_STATES).toBe(`state IN ('refused', 'failed', 'expired')`);
  const plan = db.connection
    .prepare(`EXPLAIN QUERY PLAN SELECT id FROM outbox_debits WHERE ${OPEN} AND gift_card_id = ?`)
    .all('gift_card_1') as { detail: string }[];
  expect(plan.map((step) => step.detail).join('\n')).toContain('outbox_debits_open');
});
