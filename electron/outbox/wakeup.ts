import type { Clock } from '../foundation/index.ts';

const WOKEN = Symbol('woken');

/**
 * A sleep that can be cut short: the sender sleeps until the next row is due, and an enqueue or
 * a stop must not wait for that. A wake that arrives while nobody sleeps is kept for the next
 * sleep, so a row committed just before the sender goes to sleep is not left waiting.
 */
export class Wakeup {
  #controller = new AbortController();

  wake(): void {
    // Called at every event of a drain: a wake already pending is enough, and a reason of our
    // own spares the DOMException (and its stack) that abort() would otherwise build each time.
    if (!this.#controller.signal.aborted) this.#controller.abort(WOKEN);
  }

  /** Resolves after `ms` or at the next `wake()`, whichever comes first; never rejects. */
  async sleep(clock: Clock, ms: number): Promise<void> {
    const controller = this.#controller;
    try {
      if (!controller.signal.aborted) await clock.sleep(Math.max(0, ms), controller.signal);
    } catch {
      // Aborted by wake(): that is the point.
    } finally {
      if (controller.signal.aborted && this.#controller === controller) {
        this.#controller = new AbortController();
      }
    }
  }
}
