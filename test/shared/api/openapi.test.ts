import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { openApiPath, renderOpenApiJson } from '../../../build/openapi.ts';
import { specOperations } from './fixtures/spec-operations.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

interface Document {
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; responses: Record<string, unknown>; 'x-scopes'?: unknown }
    >
  >;
}

const committed = await readFile(openApiPath, 'utf8');
const document = JSON.parse(committed) as Document;
const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    method: method.toUpperCase(),
    path,
    operation,
  })),
);

describe('shared/api/openapi.json', () => {
  it('is up to date with the zod schemas (run `npm run openapi` when this fails)', () => {
    expect(committed).toBe(renderOpenApiJson());
  });

  it('is OpenAPI 3.0.3, contract version 1.0.0', () => {
    const head = JSON.parse(committed) as { openapi: string; info: { version: string } };
    expect(head.openapi).toBe('3.0.3');
    expect(head.info.version).toBe('1.0.0');
  });

  it('has exactly the 30 operations of the spec, and no POST /v1/*', () => {
    const expected = specOperations.map(({ method, path }) => `${method} ${path}`);
    expect(expected).toHaveLength(30);
    const actual = operations.map(({ method, path }) => `${method} ${path}`);
    expect(actual.sort()).toEqual(expected.sort());
    expect(actual.filter((entry) => entry.startsWith('POST /v1/'))).toEqual([]);
  });

  it('gives every operation a unique operationId, its scopes, and error responses referencing ApiError', () => {
    const ids = operations.map(({ operation }) => operation.operationId);
    expect(new Set(ids).size).toBe(30);
    for (const { method, path, operation } of operations) {
      expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation['x-scopes'], `${method} ${path}`).toBeDefined();
      const errors = Object.entries(operation.responses).filter(([status]) => status !== '200');
      expect(errors.length, `${method} ${path}`).toBeGreaterThan(0);
      for (const [status, response] of errors) {
        expect(JSON.stringify(response), `${method} ${path} ${status}`).toContain(
          '#/components/schemas/ApiError',
        );
      }
    }
  });

  it('documents the Idempotency-Key header on the gift-card debit', () => {
    const put = document.paths['/v1/gift-cards/{giftCardId}']?.['put'] as unknown as {
      parameters: { name: string; in: string; required: boolean }[];
    };
    expect(put.parameters).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: true }),
    );
  });

  it('lints clean with @redocly/cli', async () => {
    const redocly = fileURLToPath(
      new URL('../../../node_modules/@redocly/cli/bin/cli.js', import.meta.url),
    );
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [redocly, 'lint', '--skip-rule', 'info-license-strict', '--format', 'json', openApiPath],
      {
        cwd: root,
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    ).catch((error: { stdout: string; stderr: string }) => error);
    const report = JSON.parse(stdout) as { totals: { errors: number } };
    expect(report.totals.errors, stderr).toBe(0);
  }, 60_000);
});
