import { type DebitState, debitStates } from '../outbox/index.ts';
import { CommandError } from './command.ts';

/** The values of `kioskctl outbox` flags, checked before anything is opened: USAGE errors. */

export function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new CommandError('USAGE', `${flag} is required`);
  return value;
}

/** Euros as a technician types them: digits, optionally a dot and one or two decimals. */
export function parseAmount(text: string): number {
  if (!/^\d{1,6}(\.\d{1,2})?$/.test(text)) {
    throw new CommandError(
      'USAGE',
      `--amount expects euros like 12.50 (at most two decimals), got "${text}"`,
    );
  }
  return Number(text);
}

export function parseSeconds(text: string, flag: string): number {
  if (!/^\d+(\.\d+)?$/.test(text))
    throw new CommandError('USAGE', `${flag} expects seconds, got "${text}"`);
  return Math.round(Number(text) * 1000);
}

export function parseId(text: string | undefined): number {
  if (text === undefined || !/^\d{1,15}$/.test(text)) {
    throw new CommandError(
      'USAGE',
      `expects the debit's local id (a number), got ${text === undefined ? 'nothing' : `"${text}"`}`,
    );
  }
  return Number(text);
}

export function parseState(text: string): DebitState {
  if (!(debitStates as readonly string[]).includes(text)) {
    throw new CommandError('USAGE', `--state must be one of ${debitStates.join(', ')}`);
  }
  return text as DebitState;
}

export function parsePolicy(text: string | undefined): 'prefer_online' | 'require_online' {
  if (text === undefined || text === 'prefer_online' || text === 'require_online')
    return text ?? 'prefer_online';
  throw new CommandError('USAGE', '--policy must be prefer_online or require_online');
}
