import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const configFile = fileURLToPath(new URL('../../vite.config.ts', import.meta.url));

/**
 * The built page loads its code as one classic script: Chromium reuses the compiled code of a
 * classic script from its third load, and compiles a module script whole at every load.
 */
describe('the built renderer (vite.config.ts)', () => {
  let outDir = '';
  beforeAll(async () => {
    outDir = mkdtempSync(join(tmpdir(), 'renderer-script-'));
    await build({ configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  }, 120_000);
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('is one async classic script after #root and one stylesheet, no module', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const assets = readdirSync(join(outDir, 'assets'));
    const scripts = assets.filter((name) => name.endsWith('.js'));
    const styles = assets.filter((name) => name.endsWith('.css'));
    expect(scripts).toHaveLength(1);
    expect(styles).toHaveLength(1);
    // After the element it renders into: an async script runs as soon as it is loaded.
    expect(html).toMatch(
      new RegExp(`<div id="root"></div>\\s*<script async src="\\./assets/${scripts[0]}"></script>`),
    );
    expect(html).toContain(`href="./assets/${styles[0]}"`);
    expect(html).not.toMatch(/type="module"|modulepreload/);
  });

  it('asks V8 to compile all its functions with it, so the code cache holds them all', () => {
    const script = readdirSync(join(outDir, 'assets')).find((name) => name.endsWith('.js'))!;
    const code = readFileSync(join(outDir, 'assets', script), 'utf8');
    // At the top of the file, where V8 looks for it.
    expect(code.split('\n', 1)[0]).toBe('//# allFunctionsCalledOnLoad');
  });

  it("builds none of the customer routes' schemas, whose words alone the page takes", () => {
    const script = readdirSync(join(outDir, 'assets')).find((name) => name.endsWith('.js'))!;
    const code = readFileSync(join(outDir, 'assets', script), 'utf8');
    // Each would be built as the page starts (shared/api/customers.ts builds them as it is
    // evaluated), before its first screen, which checks none of them.
    for (const id of ['CustomerContact', 'Customer', 'CreditsReply', 'CustomerHistory']) {
      expect(code).not.toMatch(new RegExp(`id:\\s*[\`'"]${id}[\`'"]`));
    }
    // The words are there: the customer screens' forms use them.
    expect(code).toContain('credit_note');
  });

  it('has no module syntax left in its script, which a classic script cannot run', () => {
    const script = readdirSync(join(outDir, 'assets')).find((name) => name.endsWith('.js'))!;
    const code = readFileSync(join(outDir, 'assets', script), 'utf8');
    // Parsed as a classic script: an import or export statement would throw here.
    expect(() => new Function(code)).not.toThrow();
    expect(code).not.toContain('import.meta');
  });
});
