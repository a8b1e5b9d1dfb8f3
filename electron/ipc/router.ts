import type { z } from 'zod';
import {
  type IpcMessages,
  type MessageName,
  type ParsedRequestOf,
  ipcMessages,
  messageByChannel,
  messageNames,
} from '../../shared/ipc/contract.ts';
import { type IpcError, type IpcResult, ipcErrorCodes } from '../../shared/ipc/errors.ts';
import { type Logger, silentLogger } from '../logging/index.ts';
import { safeMessage, toIpcError } from './error-mapping.ts';
import { type SenderInfo, checkSender } from './sender-check.ts';

/**
 * Services return their own records, often with readonly arrays; the router parses the reply
 * into a fresh value anyway, so a handler may return either form.
 */
export type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** What a handler may return for a message: its reply before the router's check. */
export type HandlerReply<N extends MessageName> = DeepReadonly<z.input<IpcMessages[N]['reply']>>;

/**
 * One function per message, given the request already parsed by its schema. The kiosk service
 * root (`electron/kiosk/`) provides them; the router never calls anything else.
 */
export type KioskHandlers = {
  readonly [N in MessageName]: (
    request: ParsedRequestOf<N>,
  ) => Promise<HandlerReply<N>> | HandlerReply<N>;
};

/** Checks the administrator PIN of protected messages; throws an IpcFailure when refused. */
export interface AdminGuard {
  verify(pin: string): void | Promise<void>;
}

export interface RouterOptions {
  readonly handlers: KioskHandlers;
  /**
   * The origins whose main frame may call: Electron's `commerce-kiosk://kiosk` (or the `scheme`
   * option's), the loopback host's own origin.
   */
  readonly allowedOrigins: readonly string[];
  readonly adminGuard: AdminGuard;
  readonly logger?: Logger;
}

export interface IpcRouter {
  /** Every message channel, for the hosts to register. */
  readonly channels: readonly string[];
  /**
   * Runs one message through the checks and the service. Never rejects and never throws: every
   * outcome, including a hostile payload or a failing service, is a serialisable result.
   */
  handle(channel: string, payload: unknown, sender: SenderInfo): Promise<IpcResult<unknown>>;
}

const MAX_ISSUES = 20;

function failure(error: IpcError): IpcResult<never> {
  return { ok: false, error };
}

function validationError(error: z.ZodError): IpcError {
  const issues = error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: safeMessage(issue.path.map(String).join('.')),
    message: safeMessage(issue.message),
  }));
  return {
    code: ipcErrorCodes.invalidRequest,
    message:
      `invalid request: ${issues.map((issue) => `${issue.path || '(request)'}: ${issue.message}`).join('; ')}`.slice(
        0,
        1_000,
      ),
    details: { issues },
  };
}

/**
 * The validated-IPC router (VS Code's model): sender check, schema parse, service call, reply
 * check. It knows nothing about Electron or HTTP, so both hosts share it.
 */
export function createIpcRouter(options: RouterOptions): IpcRouter {
  const logger = options.logger ?? silentLogger;
  const allowedOrigins = [...options.allowedOrigins];
  const channels = messageNames.map((name) => ipcMessages[name].channel);

  async function run<N extends MessageName>(
    name: N,
    payload: unknown,
  ): Promise<IpcResult<unknown>> {
    const spec = ipcMessages[name];
    let parsed: z.ZodSafeParseResult<ParsedRequestOf<N>>;
    try {
      parsed = spec.request.safeParse(payload) as z.ZodSafeParseResult<ParsedRequestOf<N>>;
    } catch {
      // A payload whose getters throw (never produced by structured clone or JSON, but the
      // router does not rely on its transport for that).
      return failure({
        code: ipcErrorCodes.invalidRequest,
        message: 'invalid request: unreadable payload',
      });
    }
    if (!parsed.success) {
      logger.warn('ipc.invalid_request', { message: name, issues: parsed.error.issues.length });
      return failure(validationError(parsed.error));
    }
    const request = parsed.data;
    try {
      if (spec.admin) {
        await options.adminGuard.verify((request as { adminPin: string }).adminPin);
      }
      const handler = options.handlers[name] as (
        request: ParsedRequestOf<N>,
      ) => Promise<unknown> | unknown;
      const value = await handler(request);
      const reply = spec.reply.safeParse(value);
      if (!reply.success) {
        logger.error('ipc.reply_broke_contract', {
          message: name,
          paths: reply.error.issues.slice(0, MAX_ISSUES).map((issue) => issue.path.join('.')),
        });
        return failure({
          code: ipcErrorCodes.internal,
          message: `the reply to ${name} does not match the contract (see the main process log)`,
        });
      }
      return { ok: true, value: reply.data };
    } catch (error) {
      const mapped = toIpcError(error);
      if (mapped.code === ipcErrorCodes.internal) {
        logger.error('ipc.handler_failed', { message: name, error });
      } else {
        logger.info('ipc.handler_refused', { message: name, code: mapped.code });
      }
      return failure(mapped);
    }
  }

  return {
    channels,
    async handle(channel, payload, sender) {
      try {
        const verdict = checkSender(sender, allowedOrigins);
        if (!verdict.ok) {
          logger.warn('ipc.sender_refused', { reason: verdict.reason });
          return failure({
            code: ipcErrorCodes.forbiddenSender,
            message: 'this page may not talk to the kiosk',
            details: { reason: verdict.reason },
          });
        }
        const name = typeof channel === 'string' ? messageByChannel(channel) : undefined;
        if (name === undefined) {
          return failure({ code: ipcErrorCodes.unknownChannel, message: 'no such message' });
        }
        return await run(name, payload);
      } catch (error) {
        // Unreachable by construction; the promise still must not reject into a host.
        logger.error('ipc.router_failed', { error });
        return failure({ code: ipcErrorCodes.internal, message: 'unexpected router failure' });
      }
    },
  };
}
