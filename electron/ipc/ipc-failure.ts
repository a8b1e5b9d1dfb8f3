import type { IpcError } from '../../shared/ipc/errors.ts';

type JsonValue = NonNullable<IpcError['details']>[string];

/**
 * A failure the IPC layer or the kiosk services raise on purpose, already in the shape that
 * crosses to the renderer. Its message is written for the renderer: no secret, no contact data.
 */
export class IpcFailure extends Error {
  override readonly name = 'IpcFailure';
  readonly code: string;
  readonly details: Readonly<Record<string, JsonValue>> | undefined;

  constructor(code: string, message: string, details?: Readonly<Record<string, JsonValue>>) {
    super(message);
    this.code = code;
    this.details = details;
  }

  toIpcError(): IpcError {
    return {
      code: this.code,
      message: this.message,
      ...(this.details === undefined ? {} : { details: { ...this.details } }),
    };
  }
}
