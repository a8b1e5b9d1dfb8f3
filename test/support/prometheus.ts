/**
 * Debian's Prometheus for tests: its own configuration and TSDB in a temp folder, its web API on
 * a free 127.0.0.1 port, scraping the given targets every second.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.ts';

export interface PrivatePrometheus {
  readonly url: string;
  /** An instant PromQL query through the HTTP API: the result vector, `[labels, value]` each. */
  query(
    promql: string,
  ): Promise<{ readonly metric: Record<string, string>; readonly value: number }[]>;
  /** Waits until `promql` returns a sample that `accept` takes (Prometheus scrapes every second). */
  waitFor(
    promql: string,
    accept: (value: number) => boolean,
    timeoutMs?: number,
  ): Promise<{ readonly metric: Record<string, string>; readonly value: number }>;
  stop(): Promise<void>;
}

export async function startPrometheus(targets: readonly string[]): Promise<PrivatePrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'kiosk-prometheus-'));
  const port = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    '  - job_name: kiosk',
    '    static_configs:',
    `      - targets: [${targets.map((target) => `'${target}'`).join(', ')}]`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'prometheus.yml'), config);
  const output: string[] = [];
  const child = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    await rm(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null || attempt > 300) {
      await stop();
      throw new Error(`prometheus did not start:\n${output.join('')}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (ready) break;
    await sleep(100);
  }

  const query: PrivatePrometheus['query'] = async (promql) => {
    const reply = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await reply.json()) as {
      status: string;
      error?: string;
      data?: { result: { metric: Record<string, string>; value: [number, string] }[] };
    };
    if (body.status !== 'success') throw new Error(`PromQL ${promql}: ${body.error}`);
    return (body.data?.result ?? []).map((sample) => ({
      metric: sample.metric,
      value: Number(sample.value[1]),
    }));
  };
  return {
    url,
    query,
    async waitFor(promql, accept, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last: Awaited<ReturnType<typeof query>> = [];
      while (Date.now() < deadline) {
        last = await query(promql);
        const found = last.find((sample) => accept(sample.value));
        if (found !== undefined) return found;
        await sleep(250);
      }
      throw new Error(`PromQL ${promql}: no accepted sample, last ${JSON.stringify(last)}`);
    },
    stop,
  };
}
