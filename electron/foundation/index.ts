/**
 * What every folder of electron/ may stand on and that stands on nothing of electron/: Node
 * built-ins only. One atomic-and-durable file writer for every small file the kiosk replaces, one
 * typed event emitter, one clock.
 */
export { type Clock, monotonicNow, systemClock } from './clock.ts';
export {
  type DurableWriteOptions,
  removeFileDurably,
  writeFileDurably,
  writeFileDurablySync,
} from './durable-file.ts';
export { TypedEmitter } from './typed-emitter.ts';
