/**
 * A schema built the first time anything reads it, standing in for the schema itself.
 *
 * The contract declares a few hundred zod schemas; building them all when the module is
 * evaluated held the kiosk page's only thread for tens of milliseconds before its first screen,
 * although that screen checks three replies. Each schema here is built on first use instead
 * (parsing it, reading its shape, embedding it when another schema is built), once, and every
 * read after that goes to the built schema: same checks, same errors, same types.
 *
 * Methods are handed out bound to the built schema, so `this` inside zod is always the real
 * instance (never this stand-in). What differs is identity only: the stand-in is not `===` the
 * built schema, so a zod registry keyed by instance (`.meta()`, `z.globalRegistry`) knows the
 * built one, which `.meta()` on the stand-in still reaches.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  // One bound copy per method, so `schema.parse === schema.parse` as on a plain schema.
  const bound = new WeakMap<(...args: never[]) => unknown, unknown>();
  return new Proxy({} as T, {
    get(_target, key) {
      const real = schema();
      const value: unknown = Reflect.get(real, key, real);
      if (typeof value !== 'function' || key === 'constructor') return value;
      const method = value as (...args: never[]) => unknown;
      let copy = bound.get(method);
      if (copy === undefined) {
        copy = method.bind(real);
        bound.set(method, copy);
      }
      return copy;
    },
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor(_target, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not report a non-configurable property its (empty) target lacks.
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
