import type { FastifyInstance } from 'fastify';
import { resetConnection } from './routes.ts';

/**
 * A network outage as the callers see it: while it lasts, every request (the contract's and
 * `/health`) loses its connection before anything is processed, as when a store's link goes
 * down. The control surface stays reachable, so the test that started the outage can end it.
 * Requests already past this point finish normally.
 */
export class NetworkOutage {
  #active = false;
  #dropped = 0;

  get active(): boolean {
    return this.#active;
  }

  /** Requests whose connection was dropped, over every outage. */
  get dropped(): number {
    return this.#dropped;
  }

  begin(): void {
    this.#active = true;
  }

  end(): void {
    this.#active = false;
  }

  /** Drops the connection of every request but the control surface's while the outage lasts. */
  attach(app: FastifyInstance): void {
    app.addHook('onRequest', async (request, reply) => {
      if (!this.#active || request.url.startsWith('/__sandbox/')) return;
      this.#dropped += 1;
      resetConnection(request, reply);
      return reply;
    });
  }
}
