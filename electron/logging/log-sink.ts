/**
 * Where log lines go. A sink never throws and never blocks the caller: a line it cannot write is
 * dropped and counted, and the count is written as a record of its own once it can write again.
 * The kiosk must not stop for its own log (a full disk, no file descriptors left, a closed pipe).
 */
export interface LogSink {
  /** Takes one line, without its newline. */
  write(line: string): void;
  /** Resolves once the writer is idle: lines taken so far are written, dropped, or wait for a retry. */
  flush(): Promise<void>;
  /** Flushes, then releases the file; lines written after are dropped. */
  close(): Promise<void>;
  /** Lines dropped since the sink was opened. */
  readonly dropped: number;
}

/** The record that stands for lines a sink had to drop, in the logger's own shape. */
export function droppedLinesRecord(dropped: number, now: number): string {
  return JSON.stringify({
    time: new Date(now).toISOString(),
    level: 'warn',
    event: 'log.lines_dropped',
    dropped,
  });
}
