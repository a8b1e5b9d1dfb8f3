import type { Writable } from 'node:stream';
import { type LogSink, droppedLinesRecord } from './log-sink.ts';

export interface StreamSinkOptions {
  /** Bytes the stream may hold unwritten; beyond, lines are dropped (default 1 MiB). */
  readonly maxQueuedBytes?: number;
  readonly now?: () => number;
}

/**
 * Log lines on a stream (stderr). A stream that failed (EPIPE: whoever read it went away) is not
 * written again: its 'error' is taken here, since unhandled it would end the process.
 */
export function createStreamSink(
  stream: Writable,
  { maxQueuedBytes = 1 << 20, now = Date.now }: StreamSinkOptions = {},
): LogSink {
  let broken = false;
  let dropped = 0;
  let unreported = 0;
  const onError = () => {
    broken = true;
  };
  stream.on('error', onError);

  const drop = () => {
    dropped++;
    unreported++;
  };

  return {
    write(line) {
      if (broken || stream.destroyed || stream.writableLength > maxQueuedBytes) {
        drop();
        return;
      }
      const report = unreported;
      const text = `${report > 0 ? `${droppedLinesRecord(report, now())}\n` : ''}${line}\n`;
      try {
        stream.write(text);
        unreported -= report;
      } catch {
        broken = true;
        drop();
      }
    },
    flush: () => Promise.resolve(),
    close() {
      broken = true;
      return Promise.resolve();
    },
    get dropped() {
      return dropped;
    },
  };
}
