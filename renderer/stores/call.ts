import type { IpcError, IpcResult } from '../../shared/ipc/errors.ts';

/** Code of a failure of the transport itself (the loopback host went away, a bridge threw). */
export const TRANSPORT_ERROR = 'RENDERER_TRANSPORT_ERROR';

/**
 * Every kiosk message replies with a result value; a bridge may still throw (the loopback host
 * is gone, the page is closing). Stores only ever see a result, so no screen has to guess.
 */
export async function settle<T>(reply: Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  try {
    return await reply;
  } catch (cause) {
    const error: IpcError = {
      code: TRANSPORT_ERROR,
      message: cause instanceof Error ? cause.message : String(cause),
    };
    return { ok: false, error };
  }
}
