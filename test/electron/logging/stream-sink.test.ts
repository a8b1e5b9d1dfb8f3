import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStreamSink } from '../../../electron/logging/stream-sink.ts';

const sinkModule = new URL('../../../electron/logging/stream-sink.ts', import.meta.url).href;

describe('the stderr sink', () => {
  it('writes one line per record', () => {
    const stream = new PassThrough();
    const sink = createStreamSink(stream);
    sink.write('{"a":1}');
    sink.write('{"b":2}');
    expect(String(stream.read())).toBe('{"a":1}\n{"b":2}\n');
  });

  it('survives a stderr nobody reads any more (EPIPE), counting what it drops', async () => {
    // Before, a log line on a closed stderr was an unhandled 'error': the process ended.
    const script = `
      const { createStreamSink } = await import(${JSON.stringify(sinkModule)});
      const sink = createStreamSink(process.stderr);
      while (sink.dropped < 10) {
        sink.write(JSON.stringify({ event: 'test.line', pad: 'x'.repeat(200) }));
        await new Promise((resolve) => setImmediate(resolve));
      }
      process.stdout.write('survived, dropped ' + sink.dropped + '\\n');
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr.destroy();
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(stdout).toBe('survived, dropped 10\n');
    expect(code).toBe(0);
  });

  it('drops lines while the stream is backed up, then writes how many', () => {
    const pending: (() => void)[] = [];
    const written: string[] = [];
    const stream = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString());
        pending.push(done);
      },
    });
    const sink = createStreamSink(stream, { maxQueuedBytes: 100, now: () => 0 });
    const line = 'y'.repeat(49);
    for (let n = 0; n < 10; n++) sink.write(line);
    // One line in the stream's hands, two more buffered (150 bytes): the rest were dropped.
    expect(sink.dropped).toBe(7);
    for (const done of pending.splice(0)) done();
    while (pending.length > 0) for (const done of pending.splice(0)) done();
    sink.write('after');
    expect(written.slice(0, 3)).toEqual([`${line}\n`, `${line}\n`, `${line}\n`]);
    expect(written.slice(3).join('')).toBe(
      `{"time":"1970-01-01T00:00:00.000Z","level":"warn","event":"log.lines_dropped","dropped":7}\nafter\n`,
    );
  });
});
