import { expect, it } from 'vitest';
import { TypedEmitter } from '../../../electron/foundation/index.ts';

type Events = { change: number; other: string };

it('delivers each event to its listeners in order, until they unsubscribe', () => {
  const emitter = new TypedEmitter<Events>();
  const heard: string[] = [];
  const offFirst = emitter.on('change', (value) => heard.push(`first ${value}`));
  emitter.on('change', (value) => heard.push(`second ${value}`));
  emitter.on('other', (value) => heard.push(`other ${value}`));
  emitter.emit('change', 1);
  offFirst();
  emitter.emit('change', 2);
  emitter.emit('other', 'x');
  expect(heard).toEqual(['first 1', 'second 1', 'second 2', 'other x']);
  expect(emitter.listenerCount('change')).toBe(1);
  emitter.clear();
  emitter.emit('change', 3);
  expect(heard).toHaveLength(4);
});

it('a throwing listener stops neither the others nor the emitter, and is reported once', () => {
  const errors: unknown[] = [];
  const emitter = new TypedEmitter<Events>((error) => errors.push(error));
  const heard: number[] = [];
  emitter.on('change', () => {
    throw new Error('a UI bug');
  });
  emitter.on('change', (value) => heard.push(value));
  expect(() => emitter.emit('change', 7)).not.toThrow();
  expect(heard).toEqual([7]);
  expect(errors).toEqual([new Error('a UI bug')]);
});
