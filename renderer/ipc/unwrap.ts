import type { IpcError, IpcResult } from '../../shared/ipc/errors.ts';

/** An IpcError as an exception, for code that prefers try/catch over checking `ok`. */
export class KioskIpcError extends Error {
  override readonly name = 'KioskIpcError';
  readonly code: string;
  readonly details: IpcError['details'];

  constructor(error: IpcError) {
    super(error.message);
    this.code = error.code;
    this.details = error.details;
  }
}

/** `await unwrap(kioskApi().getStatus())`: the value, or a KioskIpcError with the stable code. */
export async function unwrap<T>(result: IpcResult<T> | Promise<IpcResult<T>>): Promise<T> {
  const settled = await result;
  if (settled.ok) return settled.value;
  throw new KioskIpcError(settled.error);
}
