import { expect } from 'vitest';
import { ApiError } from '../../../shared/api/errors.ts';
import { type RunningSandbox, type SandboxOptions, startSandbox } from '../../../sandbox/index.ts';

/** Test helpers: a sandbox on port 0, and a thin `fetch` client that keeps status, headers and body. */

export const emails = {
  all: 'kiosk-all@sandbox.test',
  catalog: 'kiosk-catalog@sandbox.test',
  readonly: 'kiosk-readonly@sandbox.test',
  noGiftCardWrite: 'kiosk-no-gift-card-write@sandbox.test',
  productsNoStock: 'kiosk-products-no-stock@sandbox.test',
  ping: 'kiosk-ping@sandbox.test',
} as const;

export interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  readonly bytes: Uint8Array;
}

export interface RequestOptions {
  readonly method?: string;
  readonly token?: string;
  readonly body?: unknown;
  /** Sent as is (no JSON encoding). */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
}

export class Client {
  readonly baseUrl: string;
  readonly sandbox: RunningSandbox;
  readonly #tokens = new Map<string, string>();

  constructor(sandbox: RunningSandbox) {
    this.sandbox = sandbox;
    this.baseUrl = sandbox.baseUrl;
  }

  async request(path: string, options: RequestOptions = {}): Promise<Reply> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: options.method ?? 'GET',
      headers,
      body,
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const type = response.headers.get('content-type') ?? '';
    const parsed: unknown =
      type.startsWith('application/json') && bytes.length > 0
        ? JSON.parse(new TextDecoder().decode(bytes))
        : undefined;
    return { status: response.status, headers: response.headers, body: parsed, bytes };
  }

  async login(email: string, fresh = false): Promise<string> {
    const known = this.#tokens.get(email);
    if (known && !fresh) return known;
    const password = this.sandbox.accounts.find((account) => account.email === email)?.password;
    const reply = await this.request('/auth', { method: 'POST', body: { email, password } });
    expect(reply.status).toBe(200);
    const token = (reply.body as { token: string }).token;
    this.#tokens.set(email, token);
    return token;
  }

  /** GET as an account, by e-mail. */
  async as(
    email: string,
    path: string,
    options: Omit<RequestOptions, 'token'> = {},
  ): Promise<Reply> {
    const reply = await this.request(path, { ...options, token: await this.login(email) });
    // A cached token outlived a clock jump of an earlier test: log in again, once.
    const message = (reply.body as { message?: string } | undefined)?.message ?? '';
    if (reply.status === 401 && message.includes('expired')) {
      return this.request(path, { ...options, token: await this.login(email, true) });
    }
    return reply;
  }

  /** The control surface, over HTTP. */
  async control(method: string, path: string, body?: unknown): Promise<Reply> {
    const reply = await this.request(`/__sandbox${path}`, {
      method,
      ...(body === undefined ? {} : { body }),
    });
    return reply;
  }
}

export async function startClient(options: SandboxOptions = {}): Promise<Client> {
  return new Client(await startSandbox({ control: true, ...options }));
}

/** Asserts the spec's error object for a status and code. */
export function expectError(
  reply: Reply,
  status: number,
  code: string,
  label = status >= 500 ? 'Internal Server Error' : 'Request Error',
) {
  expect(reply.status).toBe(status);
  const body = ApiError.parse(reply.body);
  expect(body.statusCode).toBe(status);
  expect(body.code).toBe(code);
  expect(body.error).toBe(label);
  expect(body.message.startsWith(`${code}: `)).toBe(true);
  expect(body.message.length).toBeGreaterThan(code.length + 3);
  return body;
}

export function data<T = Record<string, unknown>>(reply: Reply): T[] {
  return (reply.body as { data: T[] }).data;
}
