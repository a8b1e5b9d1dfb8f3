import type { OtherField } from './resolve.ts';
import type { RecordKind, recordKinds } from './record-kinds.ts';

/** The TypeScript type of a resolved record of kind `K`: each value typed, or null when not provided. */

interface ValueTypes {
  readonly text: string;
  readonly money: number;
  readonly integer: number;
  readonly boolean: boolean;
  readonly date: string;
  readonly datetime: string;
}

type Fields<K extends RecordKind> = (typeof recordKinds)[K]['fields'];

type ValueOf<F> = F extends { readonly type: 'list'; readonly of: infer O extends RecordKind }
  ? readonly RecordViewOf<O>[]
  : F extends { readonly type: infer T extends keyof ValueTypes }
    ? ValueTypes[T]
    : never;

export type RecordViewOf<K extends RecordKind> = {
  readonly id: string | null;
  readonly otherFields: readonly OtherField[];
} & { readonly [F in keyof Fields<K>]: ValueOf<Fields<K>[F]> | null };
