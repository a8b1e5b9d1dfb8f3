import { useId, type ReactNode } from 'react';

/**
 * A control in the kiosk's field layout, under its label. The label names the control it hands
 * its id to, so every field is found by its label: by touch, by a screen reader, by a test.
 */
export function Field({
  label,
  grow = false,
  children,
}: {
  readonly label: ReactNode;
  /** Takes what is left of a toolbar row (a search box, an identifier). */
  readonly grow?: boolean;
  readonly children: (id: string) => ReactNode;
}) {
  const id = useId();
  return (
    <div className={grow ? 'field field-grow' : 'field'}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {children(id)}
    </div>
  );
}
