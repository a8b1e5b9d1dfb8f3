import Fastify, { type FastifyInstance } from 'fastify';
import type { Health } from '../../shared/api/auth.ts';
import { registerControl } from './control.ts';
import { ApiFailure, failure, invalidRequest } from './errors.ts';
import { failureOutcome, registerOperations, requestAccounts, send } from './routes.ts';
import type { SandboxState } from './state.ts';

export interface AppOptions {
  /** Serve the `/__sandbox/` control surface. */
  readonly control: boolean;
}

/**
 * The HTTP application: the 30 operations of the contract, `GET /health`, and (with `control`)
 * the control surface. Fastify routes and parses, nothing more: no route has a fastify schema
 * (no ajv, so nothing is coerced or stripped), every body is read as text and parsed by the
 * pipeline, and every error (unknown route or method included) is the spec's error object.
 */
export function buildApp(state: SandboxState, options: AppOptions): FastifyInstance {
  const app = Fastify({
    logger: false,
    // HEAD and every other method absent from the contract are unknown routes (404).
    exposeHeadRoutes: false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    routerOptions: {
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      caseSensitive: true,
      // Identifiers are opaque and may be long; an unknown one is a 404 from the handler.
      maxParamLength: 1000,
    },
    frameworkErrors: (error, _request, reply) => {
      send(reply, failureOutcome(invalidRequest(error.message)));
    },
  });

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    send(
      reply,
      failureOutcome(failure('RESOURCE_NOT_FOUND', `no route ${request.method} ${path}`)),
    );
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiFailure) return send(reply, failureOutcome(error));
    const status =
      typeof error === 'object' && error !== null && 'statusCode' in error
        ? Number(error.statusCode)
        : 500;
    if (status >= 400 && status < 500) {
      // Framework refusals (body too large, bad content length...): an invalid request.
      return send(
        reply,
        failureOutcome(invalidRequest(error instanceof Error ? error.message : 'invalid request')),
      );
    }
    state.log.error('unexpected error', {
      route: request.routeOptions.url,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return send(
      reply,
      failureOutcome(failure('INTERNAL_SERVER_ERROR', 'unexpected internal error')),
    );
  });

  // A service dates its replies by its own clock, and the kiosk judges the key retention on it:
  // the sandbox's is the one its control surface moves.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('date', state.clock.now().toUTCString());
    return payload;
  });

  app.addHook('onResponse', async (request, reply) => {
    state.log.info('request', {
      method: request.method,
      route: request.routeOptions.url ?? null,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      account: requestAccounts.get(request) ?? null,
    });
  });

  app.get('/health', async (_request, reply) => {
    const health: Health = { status: 'ok' };
    return send(reply, { status: 200, headers: {}, payload: { json: health } });
  });

  registerOperations(app, state);
  if (options.control) registerControl(app, state);
  return app;
}
