import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  printExitCodes,
  runPrintCommand,
  type PrintCommandContext,
} from '../../../electron/cli/print-command.ts';
import { startPrivateCups, type PrivateCups } from '../../support/cups.ts';
import { startDocumentServer, type DocumentServer } from './document-server.ts';
import { makePdf, pdfText } from './pdf.ts';

let cups: PrivateCups;
let server: DocumentServer;
let dir: string;
let credentialsFile: string;

beforeAll(async () => {
  [cups, server] = await Promise.all([startPrivateCups(), startDocumentServer()]);
  dir = await mkdtemp(join(tmpdir(), 'kioskctl-print-'));
  credentialsFile = join(dir, 'credentials.json');
  await writeFile(
    credentialsFile,
    JSON.stringify({ email: 'tech@example.com', password: 'secret' }),
    { mode: 0o600 },
  );
  server.invoices.set('sale_cli', {
    contentType: 'application/pdf',
    body: await makePdf('Facture F-2026-000900', 'Vente V-2026-000900'),
    fileName: 'F-2026-000900.pdf',
  });
  server.slips.set('sav_cli', {
    contentType: 'application/pdf',
    body: await makePdf('SAV-2026-00077'),
    fileName: 'SAV-2026-00077.pdf',
  });
  server.invoices.set('sale_html', { contentType: 'text/html', body: '<html>oops</html>' });
});

afterAll(async () => {
  await Promise.all([cups?.stop(), server?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function kioskctl(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const context: PrintCommandContext = {
    io: {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
      env: { KIOSK_CUPS_SERVER: cups.server, ...env },
    },
    queue: { pollIntervalMs: 100, retryDelayMs: 100 },
    platform: 'linux',
  };
  const code = await runPrintCommand(args, context);
  return { code, stdout, stderr };
}

const api = (): string[] => ['--base-url', server.baseUrl, '--credentials', credentialsFile];

describe('kioskctl printers / print', { timeout: 20_000 }, () => {
  it('lists the printers of the CUPS server as JSON', async () => {
    const { code, stdout } = await kioskctl(['printers']);
    expect(code).toBe(0);
    const result = JSON.parse(stdout) as {
      backend: string;
      default: string;
      printers: { name: string }[];
    };
    expect(result.backend).toBe('cups');
    expect(result.default).toBe(cups.pdfQueue);
    expect(result.printers.map((printer) => printer.name)).toContain(cups.noPaperQueue);
  });

  it('prints an invoice and reports the job id and its final state', async () => {
    const { code, stdout, stderr } = await kioskctl([
      'print',
      'invoice',
      'sale_cli',
      ...api(),
      '--printer',
      cups.pdfQueue,
      '--copies',
      '2',
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(printExitCodes.ok);
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      kind: 'invoice',
      reference: 'sale_cli',
      documentNumber: 'F-2026-000900',
      printer: cups.pdfQueue,
      copies: 2,
      state: 'completed',
      problem: null,
    });
    expect(result['jobId']).toMatch(/^[0-9a-f-]{36}$/);
    const backendJobId = String(result['backendJobId']);
    const output = await cups.waitForOutput(backendJobId.slice(backendJobId.lastIndexOf('-') + 1));
    expect(await pdfText(output)).toContain('V-2026-000900');
  });

  it('prints a SAV slip on the printer named by the environment', async () => {
    const { code, stdout } = await kioskctl(['print', 'sav-slip', 'sav_cli'], {
      KIOSK_API_BASE_URL: server.baseUrl,
      KIOSK_API_EMAIL: 'tech@example.com',
      KIOSK_API_PASSWORD: 'secret',
      KIOSK_PRINTER: cups.pdfQueue,
    });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      kind: 'sav-slip',
      documentNumber: 'SAV-2026-00077',
      state: 'completed',
    });
  });

  it('exits with a code per failure, with the reason on stderr', async () => {
    const unknown = await kioskctl([
      'print',
      'invoice',
      'sale_cli',
      ...api(),
      '--printer',
      'Back_Office',
    ]);
    expect(unknown.code).toBe(printExitCodes.printFailed);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      state: 'failed',
      problem: { code: 'printer_unknown' },
    });
    expect(JSON.parse(unknown.stderr)).toEqual({
      error: { code: 'printer_unknown', message: 'There is no printer named "Back_Office".' },
    });

    const before = await cups.allJobIds();
    const html = await kioskctl(['print', 'invoice', 'sale_html', ...api()]);
    expect(html.code).toBe(printExitCodes.documentRejected);
    expect(await cups.allJobIds()).toEqual(before);

    const missing = await kioskctl(['print', 'invoice', 'sale_nope', ...api()]);
    expect(missing.code).toBe(printExitCodes.documentUnavailable);

    const noPaper = await kioskctl([
      'print',
      'sav-slip',
      'sav_cli',
      ...api(),
      '--printer',
      cups.noPaperQueue,
    ]);
    expect(noPaper.code).toBe(printExitCodes.printFailed);
    expect(JSON.parse(noPaper.stderr).error.code).toBe('out_of_paper');
  });

  it('refuses bad command lines before fetching or printing anything', async () => {
    const downloads = server.downloads.length;
    for (const args of [
      ['print'],
      ['print', 'receipt', 'x'],
      ['print', 'invoice'],
      ['print', 'invoice', 'sale cli'],
      ['print', 'invoice', 'sale_cli', '--copies', '0'],
      ['print', 'invoice', 'sale_cli', '--copies', 'two'],
      ['print', 'invoice', 'sale_cli', '--bogus'],
      ['print', 'invoice', 'sale_cli', 'extra'],
      ['printers', '--printer', 'x'],
      ['frobnicate'],
    ]) {
      const result = await kioskctl([...args, ...api()]);
      expect(result.code, args.join(' ')).toBe(printExitCodes.invalidRequest);
      expect(JSON.parse(result.stderr).error.code).toBe('USAGE');
    }
    const noConfig = await kioskctl(['print', 'invoice', 'sale_cli']);
    expect(noConfig.code).toBe(printExitCodes.invalidRequest);
    expect(JSON.parse(noConfig.stderr).error.code).toBe('CONFIG');
    expect(server.downloads.length).toBe(downloads);
  });

  it('says when the print service is down', async () => {
    const { code, stderr } = await kioskctl(['printers', '--cups-server', '127.0.0.1:1']);
    expect(code).toBe(printExitCodes.printFailed);
    expect(JSON.parse(stderr).error.code).toBe('scheduler_down');

    // Without --printer the system default is asked for, which `lpstat -d` cannot tell from none.
    const print = await kioskctl([
      'print',
      'invoice',
      'sale_cli',
      ...api(),
      '--cups-server',
      '127.0.0.1:1',
    ]);
    expect(print.code).toBe(printExitCodes.printFailed);
    expect(JSON.parse(print.stderr).error.code).toBe('scheduler_down');
  });
});
