/**
 * A minimal typed event emitter: the main process bridges these events to IPC, and the service
 * must not depend on Electron or on Node's untyped EventEmitter to offer them.
 */
export class TypedEmitter<Events extends Record<string, unknown>> {
  readonly #listeners = new Map<keyof Events, Set<(value: never) => void>>();

  /** Returns the function that removes the listener. */
  on<K extends keyof Events>(event: K, listener: (value: Events[K]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  /** A throwing listener must not stop the others nor the code that emitted. */
  emit<K extends keyof Events>(
    event: K,
    value: Events[K],
    onListenerError?: (error: unknown) => void,
  ): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (value: Events[K]) => void)(value);
      } catch (error) {
        onListenerError?.(error);
      }
    }
  }

  listenerCount<K extends keyof Events>(event: K): number {
    return this.#listeners.get(event)?.size ?? 0;
  }
}
