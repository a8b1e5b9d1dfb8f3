/**
 * The one event emitter of electron/: named events, each with its payload type, and one way to
 * subscribe (`on(event, listener)`, which returns the function that removes the listener). The
 * services offer their events through it so that none depends on Electron or on Node's untyped
 * EventEmitter, and the hosts bridge them to IPC.
 */
export class TypedEmitter<Events extends Record<string, unknown>> {
  readonly #listeners = new Map<keyof Events, Set<(value: never) => void>>();
  readonly #onListenerError: (error: unknown) => void;

  /**
   * `onListenerError` hears what a listener threw: a listener (a UI bug, a closed window) must
   * stop neither the others nor the code that emitted, which may be between two database writes.
   */
  constructor(onListenerError: (error: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

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

  emit<K extends keyof Events>(event: K, value: Events[K]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (value: Events[K]) => void)(value);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  listenerCount<K extends keyof Events>(event: K): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  /** Drops every listener (the owner is closing). */
  clear(): void {
    this.#listeners.clear();
  }
}
