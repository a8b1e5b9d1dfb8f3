import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `kioskctl contract import` on documents an integrator was sent, some hostile. Before: a
 * 491-byte YAML alias bomb spun for more than 120 s; a `$ref` to any local file (/etc/hostname,
 * a credentials file) was read and parsed into the comparison. Now the document is read bounded,
 * YAML aliases are limited, `$ref`s are followed inside the document only (with
 * `--allow-local-refs`, to files in its own directory), and nothing is fetched.
 *
 * kioskctl runs as its own process: the kill after a minute is a safety net (the code before the
 * fix, spinning on the bomb, is killed and fails the test), not a timing assertion.
 */

const kioskctlPath = fileURLToPath(new URL('../../electron/cli/kioskctl.ts', import.meta.url));
const ownContract = JSON.parse(
  readFileSync(new URL('../../shared/api/openapi.json', import.meta.url), 'utf8'),
) as { paths: Record<string, Record<string, unknown>>; components?: unknown };
const SECRET = 'secret-password-8d1f0c';

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function kioskctl(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [kioskctlPath, ...args], {
      env: { PATH: process.env['PATH'] ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function refusalOf(run: Run): string {
  expect(run.code, run.stderr).toBe(2);
  const { error } = JSON.parse(run.stderr.trim().split('\n').at(-1)!) as {
    error: { code: string; message: string };
  };
  expect(error.code).toBe('CONTRACT_DOCUMENT_INVALID');
  return error.message;
}

let root: string;
let documents: string;
/** The project's own contract, whose ping reply is `$ref`ed to `target`. */
function withPingRef(name: string, target: string): string {
  const document = structuredClone(ownContract);
  const ping = document.paths['/v1/ping']!['get'] as {
    responses: Record<string, { content: Record<string, { schema: unknown }> }>;
  };
  ping.responses['200']!.content['application/json']!.schema = { $ref: target };
  const path = join(documents, name);
  writeFileSync(path, JSON.stringify(document));
  return path;
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kiosk-security-contract-'));
  documents = join(root, 'vendor');
  mkdirSync(documents);
  // A file beside the vendor's folder, which no $ref may reach.
  writeFileSync(
    join(root, 'credentials.json'),
    JSON.stringify({
      type: 'object',
      properties: { password: { type: 'string', example: SECRET } },
    }),
  );
  writeFileSync(
    join(documents, 'common.json'),
    JSON.stringify({ Ping: { type: 'object', properties: { version: { type: 'string' } } } }),
  );
  symlinkSync(join(root, 'credentials.json'), join(documents, 'link.json'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('kioskctl contract import on hostile documents', { timeout: 120_000 }, () => {
  it('a YAML alias bomb: refused, naming the rule', async () => {
    const levels = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    const bomb = [
      'openapi: 3.0.0',
      'lol: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      ...levels
        .slice(1)
        .map(
          (name, index) => `${name}: &${name} [${Array(9).fill(`*${levels[index]}`).join(',')}]`,
        ),
      'paths: {}',
    ].join('\n');
    expect(bomb.length).toBeLessThan(600);
    const path = join(documents, 'bomb.yaml');
    writeFileSync(path, bomb);
    expect(refusalOf(await kioskctl(['contract', 'import', path]))).toMatch(
      /more than 100 YAML aliases expanded: refused/,
    );
  });

  it('a $ref to /etc/hostname, or to a file beside the folder: refused, never read', async () => {
    const cases = [
      withPingRef('hostname.json', '/etc/hostname'),
      withPingRef('outside.json', '../credentials.json#/'),
      withPingRef('link.json.doc', 'link.json#/'),
    ];
    for (const path of cases) {
      for (const flags of [[], ['--allow-local-refs']]) {
        const run = await kioskctl(['contract', 'import', path, ...flags]);
        const message = refusalOf(run);
        expect(message).toMatch(
          flags.length === 0
            ? /points outside the document: only references inside it \(#\/\.\.\.\) are followed/
            : /outside the document's directory: not read/,
        );
        expect(run.stdout + run.stderr).not.toContain(SECRET);
      }
    }
  });

  it('--allow-local-refs follows a file in the document’s own folder', async () => {
    const path = withPingRef('beside.json', 'common.json#/Ping');
    expect(refusalOf(await kioskctl(['contract', 'import', path]))).toMatch(/points outside/);
    const run = await kioskctl(['contract', 'import', path, '--allow-local-refs', '--json']);
    // Compared (0: no difference, 10: some), not refused.
    expect([0, 10], run.stderr).toContain(run.code);
    expect(JSON.parse(run.stdout)).toMatchObject({ differences: expect.any(Array) });
  });

  describe('a remote $ref', () => {
    let server: Server;
    let requests = 0;
    beforeAll(async () => {
      server = createServer((_request, response) => {
        requests += 1;
        response.end(JSON.stringify({ type: 'object' }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => server.close());

    it('is not fetched, with or without --allow-local-refs', async () => {
      const { port } = server.address() as { port: number };
      const path = withPingRef('remote.json', `http://127.0.0.1:${port}/schema.json`);
      for (const flags of [[], ['--allow-local-refs']]) {
        expect(refusalOf(await kioskctl(['contract', 'import', path, ...flags]))).toMatch(
          /is remote: contract import fetches nothing/,
        );
      }
      expect(requests).toBe(0);
    });
  });

  it('a document nested 200 deep, /dev/zero, a directory: refused', async () => {
    const deep = join(documents, 'deep.json');
    writeFileSync(
      deep,
      `{"openapi": "3.0.0", "paths": {}, "x": ${'['.repeat(200)}${']'.repeat(200)}}`,
    );
    expect(refusalOf(await kioskctl(['contract', 'import', deep]))).toMatch(
      /nested deeper than 64 levels/,
    );
    for (const [path, rule] of [
      ['/dev/zero', /a character device, not a regular file/],
      [documents, /a directory, not a regular file/],
    ] as const) {
      expect(refusalOf(await kioskctl(['contract', 'import', path]))).toMatch(rule);
    }
  });
});
