import type { ReactNode } from 'react';
import { Field } from './Field.tsx';

/** The value of the option standing for null: the ids and names chosen here are never empty. */
const NONE = '';

/** A labelled select of an optional value: null is the `noneLabel` option (every shop, the default printer). */
export function OptionalSelect({
  label,
  value,
  onChange,
  noneLabel,
  children,
}: {
  readonly label: string;
  readonly value: string | null;
  readonly onChange: (value: string | null) => void;
  /** The option standing for null, when null may be chosen. */
  readonly noneLabel?: string | undefined;
  /** The options of the values. */
  readonly children: ReactNode;
}) {
  return (
    <Field label={label}>
      {(id) => (
        <select
          id={id}
          className="select"
          value={value ?? NONE}
          onChange={(event) => onChange(event.target.value === NONE ? null : event.target.value)}
        >
          {noneLabel !== undefined && <option value={NONE}>{noneLabel}</option>}
          {children}
        </select>
      )}
    </Field>
  );
}
