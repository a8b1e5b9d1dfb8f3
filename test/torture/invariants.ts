import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { isCommerceApiError } from '../../electron/api/errors.ts';
import { DATABASE_FILE } from '../../electron/storage/database.ts';
import type { LedgerEntry } from '../../sandbox/index.ts';
import type { Ack } from './driver-process.ts';
import type { KioskInput } from './driver.ts';
import type { Slot } from './sandbox-slot.ts';

const TERMINAL = new Set(['applied', 'refused', 'failed', 'expired', 'cancelled']);
const HELD = 'DEBIT_OUTCOME_UNKNOWN';
const REFUSAL_CODES = new Set(['INSUFFICIENT_BALANCE', 'GIFT_CARD_INACTIVE', 'GIFT_CARD_EXPIRED']);
const FAILURE_CODES = new Set(['RESOURCE_NOT_FOUND']);

/** A row of the kiosk's outbox, read straight from its database file. */
export interface Row {
  id: number;
  idempotency_key: string;
  gift_card_id: string;
  request_body: string;
  state: string;
  attempts: number;
  last_error_code: string | null;
  reply: string | null;
  new_balance: number | null;
  request_id: string | null;
  reference: string;
  outcome_unknown_since: number | null;
}

/** What the check found, for the seed's report. */
export interface Check {
  readonly rows: readonly Row[];
  readonly ledger: readonly LedgerEntry[];
  readonly applied: number;
  readonly refused: number;
  readonly failed: number;
  readonly expired: number;
  /** Rows held as "outcome unknown" at the end (the rows waiting behind one on its card too). */
  readonly held: number;
  readonly unacknowledged: number;
}

/**
 * The invariants, against the sandbox's ledger (one line per debit it actually applied). A row
 * is one logical debit whatever keys it went out under (a profile change may give it a new one),
 * so the ledger is read by the row's reference, unique per row and kept across keys:
 * 1. every acknowledged debit is in the database (the acknowledgement followed the commit);
 * 2. no idempotency key is applied twice;
 * 3. nothing is applied that no row carries (under its current key or a retired one), and what
 *    was applied is the row's card, amount and reference;
 * 4. every row is settled, or held as "outcome unknown" for a person (or waits, never attempted,
 *    behind such a row of its card), and its state matches the ledger: applied exactly once;
 *    refused, failed or expired and never applied, with a code the service gives for that card;
 *    held, applied at most once;
 * 5. replaying each settled row's key and body gets the service's recorded answer: the same
 *    receipt for an applied row, the same refusal or failure otherwise, and the replays apply
 *    nothing (not when the service's clock jumped past its key retention: it forgot the keys);
 * 6. one logical debit, one debit: each step of the plan (a request id, sent again after every
 *    lost reply and every kill) is exactly one row, with that step's card and amount, and that
 *    row was acknowledged (the retry found it); no row without a step;
 * 7. every logical debit appears in the ledger exactly once when its row is applied, never when
 *    it is refused, failed or expired, at most once when it is held.
 */
export async function checkInvariants(
  slot: Slot,
  dataDir: string,
  plan: KioskInput['plan'],
  acked: ReadonlyMap<string, Ack>,
  problems: string[],
  options: { readonly replay: boolean } = { replay: true },
): Promise<Check> {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
  let rows: Row[];
  let retired: { debit_id: number; idempotency_key: string }[];
  try {
    rows = db.prepare('SELECT * FROM outbox_debits ORDER BY id').all() as unknown as Row[];
    retired = db
      .prepare('SELECT debit_id, idempotency_key FROM outbox_debit_keys')
      .all() as unknown as { debit_id: number; idempotency_key: string }[];
  } finally {
    db.close();
  }
  const ledger = [...slot.control.ledger()];
  const byId = new Map(rows.map((row) => [row.id, row]));
  // Every key a row went out under: its current one and those a rebuild retired.
  const byKey = new Map(rows.map((row) => [row.idempotency_key, row]));
  for (const key of retired) {
    const row = byId.get(key.debit_id);
    if (row) byKey.set(key.idempotency_key, row);
  }
  const ledgerCount = new Map<string, number>();
  const byReference = new Map<string, number>();
  for (const entry of ledger) {
    ledgerCount.set(entry.idempotencyKey, (ledgerCount.get(entry.idempotencyKey) ?? 0) + 1);
    const row = byKey.get(entry.idempotencyKey);
    if (row) byReference.set(row.reference, (byReference.get(row.reference) ?? 0) + 1);
  }
  const ackedIds = new Set([...acked.values()].map((ack) => ack.id));

  // Every acknowledged debit is in the database: the acknowledgement came after the commit.
  for (const [key, ack] of acked) {
    const row = byKey.get(key);
    if (!row) problems.push(`acknowledged debit ${key} (id ${ack.id}) is not in the database`);
    else if (row.id !== ack.id || row.gift_card_id !== ack.card)
      problems.push(`acknowledged debit ${key} does not match its row`);
  }
  // No key applied twice; nothing applied that no row of ours carries (acknowledged or in flight).
  for (const [key, count] of ledgerCount) {
    if (count > 1) problems.push(`key ${key} applied ${count} times`);
    if (!byKey.has(key)) problems.push(`the service applied key ${key}, which no row carries`);
  }
  for (const entry of ledger) {
    const row = byKey.get(entry.idempotencyKey);
    if (!row) continue;
    const body = JSON.parse(row.request_body) as { amount: number; reference: string };
    if (
      entry.giftCardId !== row.gift_card_id ||
      entry.amount !== body.amount ||
      entry.reference !== body.reference
    ) {
      problems.push(
        `ledger entry for ${entry.idempotencyKey} does not match the row's card, amount or reference`,
      );
    }
  }

  let applied = 0;
  let refused = 0;
  let failed = 0;
  let expired = 0;
  let held = 0;
  // A card's open rows behind a held one wait for it, never attempted.
  const heldCards = new Set(
    rows.filter((row) => row.outcome_unknown_since !== null).map((row) => row.gift_card_id),
  );
  for (const row of rows) {
    const inLedger = byReference.get(row.reference) ?? 0;
    const label = `row ${row.id} (${row.state}, key ${row.idempotency_key})`;
    if (!TERMINAL.has(row.state)) {
      if (row.outcome_unknown_since !== null && row.last_error_code === HELD) {
        held += 1;
        if (inLedger > 1) problems.push(`${label} is held and applied ${inLedger} times`);
      } else if (heldCards.has(row.gift_card_id) && row.attempts === 0) {
        held += 1;
        if (inLedger > 0) problems.push(`${label} was never sent but the service applied it`);
      } else {
        problems.push(`${label} is neither settled nor held at the end`);
      }
      continue;
    }
    // The row's state matches the ledger, and a replay of the same key and body gets the same
    // answer from the service (it replays its first reply for a key it remembers).
    let replay:
      { ok: true; receiptId: string } | { ok: false; kind: string; code: string } | undefined;
    if (options.replay && row.state !== 'expired') {
      try {
        const receipt = await slot.gateway.debit(
          row.gift_card_id,
          row.idempotency_key,
          row.request_body,
        );
        replay = { ok: true, receiptId: receiptIdOf(receipt) };
      } catch (error) {
        replay = isCommerceApiError(error)
          ? { ok: false, kind: error.kind, code: error.code }
          : { ok: false, kind: 'unknown', code: String(error) };
      }
    }
    switch (row.state) {
      case 'applied': {
        applied += 1;
        if (inLedger !== 1)
          problems.push(`${label} is applied but the ledger has it ${inLedger} times`);
        const reply =
          row.reply === null
            ? undefined
            : (JSON.parse(row.reply) as {
                kind: string;
                receipt?: ReceiptView;
              });
        if (reply?.kind === 'receipt') {
          const entry = ledger.find(
            (candidate) => candidate.idempotencyKey === row.idempotency_key,
          );
          if (entry && reply.receipt?.balance !== entry.balanceAfter)
            problems.push(`${label}: stored balance differs from the service's`);
          const receiptId = reply.receipt ? receiptIdOf(reply.receipt) : undefined;
          if (replay && (!replay.ok || replay.receiptId !== receiptId))
            problems.push(
              `${label}: the service's replay is ${JSON.stringify(replay)}, not receipt ${receiptId}`,
            );
        }
        break;
      }
      case 'refused':
        refused += 1;
        if (inLedger !== 0) problems.push(`${label} is refused but the service applied it`);
        if (!REFUSAL_CODES.has(row.last_error_code ?? ''))
          problems.push(`${label}: unexpected refusal code ${row.last_error_code}`);
        if (
          replay &&
          (replay.ok || replay.kind !== 'Conflict' || replay.code !== row.last_error_code)
        ) {
          problems.push(
            `${label}: the service's replay is ${JSON.stringify(replay)}, not the same refusal`,
          );
        }
        break;
      case 'failed':
        failed += 1;
        if (inLedger !== 0) problems.push(`${label} is failed but the service applied it`);
        if (!FAILURE_CODES.has(row.last_error_code ?? ''))
          problems.push(`${label}: unexpected failure code ${row.last_error_code}`);
        if (replay && (replay.ok || replay.code !== row.last_error_code))
          problems.push(`${label}: the service's replay is ${JSON.stringify(replay)}`);
        break;
      case 'expired':
        // "Never applied": only ever said on evidence.
        expired += 1;
        if (inLedger !== 0) problems.push(`${label} is expired but the service applied it`);
        break;
      default:
        problems.push(`${label}: no row should be ${row.state} in this test`);
    }
  }
  if (slot.control.ledger().length !== ledger.length)
    problems.push('a replay of a settled key applied a new debit');

  // One logical debit, one row, one ledger entry at most.
  const byRequest = new Map<string, Row[]>();
  for (const row of rows) {
    if (row.request_id === null) problems.push(`row ${row.id} has no request id`);
    else byRequest.set(row.request_id, [...(byRequest.get(row.request_id) ?? []), row]);
  }
  const steps = new Set(plan.map((step) => step.requestId));
  for (const row of rows) {
    if (row.request_id !== null && !steps.has(row.request_id))
      problems.push(`row ${row.id} carries request id ${row.request_id}, which no step has`);
  }
  for (const step of plan) {
    const mine = byRequest.get(step.requestId) ?? [];
    const label = `logical debit ${step.requestId} (${step.card}, ${step.amount} EUR)`;
    if (mine.length !== 1) {
      problems.push(`${label} has ${mine.length} rows`);
      continue;
    }
    const row = mine[0]!;
    const body = JSON.parse(row.request_body) as { amount: number };
    if (row.gift_card_id !== step.card || body.amount !== step.amount)
      problems.push(`${label}: its row ${row.id} is another card or amount`);
    const ack = [...acked.values()].find((entry) => entry.id === row.id);
    if (!ack || ack.requestId !== step.requestId)
      problems.push(`${label}: its row ${row.id} was never acknowledged under its request id`);
    const inLedger = byReference.get(row.reference) ?? 0;
    const ok =
      row.state === 'applied'
        ? inLedger === 1
        : row.state === 'pending' || row.state === 'sending'
          ? inLedger <= 1
          : inLedger === 0;
    if (!ok) problems.push(`${label} is ${row.state} and appears ${inLedger} times in the ledger`);
  }
  const unacknowledged = rows.filter((row) => !ackedIds.has(row.id)).length;
  return { rows, ledger, applied, refused, failed, expired, held, unacknowledged };
}

/** A receipt as the outbox keeps it: read through the profile, the service's id among the others. */
interface ReceiptView {
  readonly balance: number | null;
  readonly otherFields: readonly { readonly name: string; readonly value: unknown }[];
}

function receiptIdOf(receipt: ReceiptView): string {
  return String(receipt.otherFields.find((field) => field.name === 'id')?.value);
}
