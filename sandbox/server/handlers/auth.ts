import type { Handlers } from '../handler.ts';

/** The V1 API version `GET /v1/ping` reports: the contract version. */
export const apiVersion = '1.0.0';

export const authHandlers = {
  authenticate: async ({ state, body }) => {
    const account = state.tokens.login(body.email, body.password);
    return { json: { token: await state.tokens.issue(account) } };
  },
  ping: () => ({ json: { version: apiVersion } }),
} satisfies Pick<Handlers, 'authenticate' | 'ping'>;
