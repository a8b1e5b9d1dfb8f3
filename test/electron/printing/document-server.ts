import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DocumentReply {
  readonly status?: number;
  readonly contentType: string;
  readonly body: Uint8Array | string;
  readonly fileName?: string;
}

/**
 * A tiny Commerce-API-shaped server on 127.0.0.1 for what the sandbox does not fake: replies
 * whose body is not a good PDF (an HTML page, a PDF cut short). It answers `POST /auth`, the
 * invoice metadata, and the two PDF routes with whatever a test put in `invoices`/`slips`; the
 * real API client talks to it through the same document path the kiosk uses.
 */
export interface DocumentServer {
  readonly baseUrl: string;
  readonly invoices: Map<string, DocumentReply>;
  readonly slips: Map<string, DocumentReply>;
  /** Download requests seen, by path: to show a refused document was fetched once. */
  readonly downloads: string[];
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const invoices = new Map<string, DocumentReply>();
  const slips = new Map<string, DocumentReply>();
  const downloads: string[] = [];

  const send = (response: ServerResponse, reply: DocumentReply): void => {
    const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : Buffer.from(reply.body);
    response.writeHead(reply.status ?? 200, {
      'content-type': reply.contentType,
      'content-length': body.byteLength,
      ...(reply.fileName
        ? { 'content-disposition': `attachment; filename="${reply.fileName}"` }
        : {}),
    });
    response.end(body);
  };
  const json = (response: ServerResponse, status: number, value: unknown): void =>
    send(response, { status, contentType: 'application/json', body: JSON.stringify(value) });

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    request.resume();
    if (request.method === 'POST' && path === '/auth') {
      json(response, 200, { token: 'test-token' });
      return;
    }
    let match = /^\/v1\/sales\/([^/]+)\/invoice(\/download)?$/.exec(path);
    if (request.method === 'GET' && match?.[1]) {
      const saleId = decodeURIComponent(match[1]);
      const reply = invoices.get(saleId);
      if (!reply) {
        json(response, 404, { statusCode: 404, message: 'NOT_FOUND: no such sale' });
      } else if (match[2]) {
        downloads.push(path);
        send(response, reply);
      } else {
        json(response, 200, {
          id: `invoice_${saleId}`,
          saleId,
          number: reply.fileName?.replace(/\.pdf$/, '') ?? 'F-2026-000001',
          issuedAt: '2026-01-15T10:00:00Z',
          totalInclTax: 129.9,
          currency: 'EUR',
          fileName: reply.fileName ?? 'invoice.pdf',
          contentType: 'application/pdf',
        });
      }
      return;
    }
    match = /^\/v1\/sav\/([^/]+)\/slip$/.exec(path);
    if (request.method === 'GET' && match?.[1]) {
      const reply = slips.get(decodeURIComponent(match[1]));
      if (reply) {
        downloads.push(path);
        send(response, reply);
      } else {
        json(response, 404, { statusCode: 404, message: 'NOT_FOUND: no such SAV case' });
      }
      return;
    }
    json(response, 404, { statusCode: 404, message: 'NOT_FOUND' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    invoices,
    slips,
    downloads,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
