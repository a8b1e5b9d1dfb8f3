import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../build/electronegativity.sh', import.meta.url));
const run = (dir?: string) =>
  promisify(execFile)('bash', dir === undefined ? [script] : [script, dir]).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

const fixtures = await mkdtemp(join(tmpdir(), 'electronegativity-'));
afterAll(() => rm(fixtures, { recursive: true, force: true }));

describe('build/electronegativity.sh (the CI security scan of electron/)', () => {
  it('finds no HIGH severity issue in electron/', async () => {
    const result = await run();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 60_000);

  it('fails, naming the check, on a window without context isolation', async () => {
    await writeFile(
      join(fixtures, 'window.ts'),
      'new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false } });\n',
    );
    const result = await run(fixtures);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('CONTEXT_ISOLATION_JS_CHECK');
  }, 60_000);
});
