import { z } from 'zod';
import type { Operation } from '../../shared/api/operation.ts';
import { operationList } from '../../shared/api/operations.ts';
import { Random } from '../data/random.ts';

/**
 * Fault injection for tests of the client's resilience. A fault targets one route (by
 * operationId, or by its OpenAPI path, optionally narrowed to a method) or every operation of the
 * contract when `route` is absent; never `/health` nor the control surface. It fires for the next
 * `count` matching requests (forever when absent), each time with `probability` (default 1),
 * drawn from a PRNG seeded by the sandbox seed so a run is reproducible.
 *
 * Kinds: `latency` (adds `latencyMs`, then the request goes on), `rate-limit` (429 with
 * `Retry-After: retryAfterSeconds`), `internal-error` (500), `unavailable` (503, with
 * `Retry-After` when `retryAfterSeconds` is given), `reset` (the socket is destroyed before the
 * request is processed: nothing happened), `commit-then-reset` (the request is processed and its
 * write applied, then the socket is destroyed before any reply: the client cannot know).
 */

export const faultKinds = [
  'latency',
  'rate-limit',
  'internal-error',
  'unavailable',
  'reset',
  'commit-then-reset',
  /** A 400 before the handler: a service refusing the request's shape (an unknown field). */
  'invalid-request',
] as const;
export type FaultKind = (typeof faultKinds)[number];

const routeNames = new Set(
  operationList.flatMap((operation) => [operation.operationId, operation.path]),
);

export const FaultSpec = z
  .strictObject({
    kind: z.enum(faultKinds),
    route: z
      .string()
      .refine((route) => routeNames.has(route), {
        message: 'not an operationId nor an OpenAPI path of the contract',
      })
      .optional(),
    method: z.enum(['GET', 'PUT', 'POST']).optional(),
    count: z.number().int().min(1).optional(),
    probability: z.number().min(0).max(1).optional(),
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
  })
  .refine((spec) => spec.kind !== 'latency' || spec.latencyMs !== undefined, {
    message: 'a latency fault needs latencyMs',
    path: ['latencyMs'],
  });
export type FaultSpec = z.infer<typeof FaultSpec>;

export interface Fault extends FaultSpec {
  readonly id: string;
  /** Firings left; null: until cleared. */
  remaining: number | null;
  fired: number;
}

/** What the faults drawn for one request ask for. */
export interface FaultDraw {
  readonly latencyMs: number;
  /** The first non-latency fault that fired, if any. */
  readonly action: Fault | undefined;
}

const noFault: FaultDraw = { latencyMs: 0, action: undefined };

export class FaultInjector {
  readonly #faults: Fault[] = [];
  readonly #seed: number;
  #random: Random;
  #nextId = 1;

  constructor(seed: number) {
    this.#seed = seed;
    this.#random = new Random(seed).fork('faults');
  }

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      ...spec,
      id: `fault_${this.#nextId++}`,
      remaining: spec.count ?? null,
      fired: 0,
    };
    this.#faults.push(fault);
    return fault;
  }

  list(): readonly Fault[] {
    return this.#faults.map((fault) => ({ ...fault }));
  }

  remove(id: string): boolean {
    const index = this.#faults.findIndex((fault) => fault.id === id);
    if (index < 0) return false;
    this.#faults.splice(index, 1);
    return true;
  }

  clear(): void {
    this.#faults.length = 0;
    this.#random = new Random(this.#seed).fork('faults');
  }

  draw(operation: Operation): FaultDraw {
    if (this.#faults.length === 0) return noFault;
    let latencyMs = 0;
    let action: Fault | undefined;
    for (const fault of this.#faults) {
      if (!matches(fault, operation)) continue;
      if (fault.kind !== 'latency' && action !== undefined) continue;
      if (fault.probability !== undefined && !this.#random.chance(fault.probability)) continue;
      fault.fired += 1;
      if (fault.remaining !== null) fault.remaining -= 1;
      if (fault.kind === 'latency') latencyMs += fault.latencyMs ?? 0;
      else action = fault;
    }
    // Spent faults go away so the list shows what is still armed.
    for (let i = this.#faults.length - 1; i >= 0; i--)
      if (this.#faults[i]?.remaining === 0) this.#faults.splice(i, 1);
    return { latencyMs, action };
  }
}

function matches(fault: Fault, operation: Operation): boolean {
  if (fault.method !== undefined && fault.method !== operation.method) return false;
  if (fault.route === undefined) return true;
  return fault.route === operation.operationId || fault.route === operation.path;
}
