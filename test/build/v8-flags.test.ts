import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kioskV8Flags } from '../../electron/host/v8-flags.ts';

const file = (path: string) =>
  readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const jsFlags = `--js-flags=${kioskV8Flags.join(' ')}`;

describe("the kiosk's V8 flags (electron/host/v8-flags.ts)", () => {
  it('are what the packaged app launches its main process with', () => {
    const config = parse(file('build/electron-builder.yml')) as {
      linux: { executableArgs?: string[] };
    };
    expect(config.linux.executableArgs).toEqual([jsFlags]);
  });

  it('are what npm start launches either host with', () => {
    const start = file('build/start.sh');
    expect(start).toContain(`exec npx --no-install electron ${jsFlags} dist/electron/host/main.js`);
    expect(start).toContain(`exec node ${kioskV8Flags.join(' ')} electron/host/browser-main.ts`);
  });

  it('are what kioskctl runs with, by its own path or through npm', () => {
    const flags = kioskV8Flags.join(' ');
    expect(file('electron/cli/kioskctl.ts').split('\n')[0]).toBe(`#!/usr/bin/env -S node ${flags}`);
    const scripts = (JSON.parse(file('package.json')) as { scripts: Record<string, string> })
      .scripts;
    expect(scripts['kioskctl']).toBe(`node ${flags} electron/cli/kioskctl.ts`);
  });

  it('hold the young generation at 16 MB a semi-space under an allocation that would grow it', async () => {
    // Survivors grow V8's young generation; a list that keeps a share of what is allocated
    // survives every collection, as a sync's page does while it is written.
    const program = `
      const v8 = require('node:v8');
      const kept = [];
      let largest = 0;
      for (let i = 0; i < 400000; i += 1) {
        const entry = { i, text: 'x'.repeat(64) + i };
        if (i % 4 === 0) kept.push(entry);
        if (kept.length > 20000) kept.splice(0, 10000);
        if (i % 1000 === 0) {
          const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
          largest = Math.max(largest, young.space_size);
        }
      }
      console.log(largest);`;
    const { stdout } = await promisify(execFile)(process.execPath, [
      ...kioskV8Flags,
      '-e',
      program,
    ]);
    expect(Number(stdout)).toBeGreaterThan(0);
    expect(Number(stdout)).toBeLessThanOrEqual(2 * 16 * 1024 * 1024);
  }, 30_000);
});
