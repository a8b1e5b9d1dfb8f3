import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const main = fileURLToPath(new URL('../../../sandbox/main.ts', import.meta.url));

function run(args: string[]): { child: ChildProcess; stdout: () => string; stderr: () => string } {
  const child = spawn(process.execPath, [main, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return { child, stdout: () => stdout, stderr: () => stderr };
}

async function firstLine(read: () => string, child: ChildProcess): Promise<string> {
  while (!read().includes('\n')) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
    await new Promise((done) => setTimeout(done, 25));
  }
  return read().split('\n')[0]!;
}

describe('node sandbox/main.ts', () => {
  test('prints one JSON line when listening, logs to stderr only, stops on SIGTERM', async () => {
    const { child, stdout, stderr } = run([
      '--port',
      '0',
      '--seed',
      '7',
      '--control',
      '--token-ttl',
      '60',
    ]);
    try {
      const line = JSON.parse(await firstLine(stdout, child)) as {
        event: string;
        baseUrl: string;
        accounts: { email: string; password: string; scopes: string[] }[];
      };
      expect(line.event).toBe('listening');
      expect(line.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(line.accounts.map((account) => account.email)).toContain('kiosk-all@sandbox.test');
      const auth = await fetch(`${line.baseUrl}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'kiosk-all@sandbox.test', password: 'sandbox-all' }),
      });
      const { token } = (await auth.json()) as { token: string };
      await fetch(`${line.baseUrl}/v1/customers?email=helene.lefevre%40example.com`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect((await fetch(`${line.baseUrl}/__sandbox/clock`)).status).toBe(200);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(stdout().trim().split('\n')).toHaveLength(1);
      const logs = stderr();
      expect(logs).toContain('"route":"/v1/customers"');
      // No token, password nor personal data in the logs.
      for (const secret of [token, 'sandbox-all', 'helene.lefevre'])
        expect(logs).not.toContain(secret);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('SIGINT stops it too', async () => {
    const { child, stdout } = run(['--port', '0']);
    try {
      await firstLine(stdout, child);
      child.kill('SIGINT');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test('--dialect alternate serves the alternate shapes and says so', async () => {
    const { child, stdout } = run(['--port', '0', '--dialect', 'alternate']);
    try {
      const line = JSON.parse(await firstLine(stdout, child)) as {
        baseUrl: string;
        dialect: string;
      };
      expect(line.dialect).toBe('alternate');
      const auth = await fetch(`${line.baseUrl}/auth`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'kiosk-all@sandbox.test', password: 'sandbox-all' }),
      });
      const { token } = (await auth.json()) as { token: string };
      const ping = await fetch(`${line.baseUrl}/v1/ping`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(Object.keys((await ping.json()) as object)).toEqual(['apiVersion']);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test.each([
    [['--port', 'abc']],
    [['--port', '70000']],
    [['--bogus']],
    [['--seed']],
    [['--products', '0']],
    [['positional']],
    [['--dialect', 'bogus']],
  ])('bad flags %j exit with code 2 and a clear message', async (args) => {
    const { child, stdout, stderr } = run(args);
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stdout()).toBe('');
    expect(stderr()).toMatch(/^sandbox: .+\nusage: /);
  });
});
