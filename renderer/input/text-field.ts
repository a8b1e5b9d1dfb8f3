/** A field that takes typed text: what the scanner and the on-screen keyboard write into. */
export type TextField = HTMLInputElement | HTMLTextAreaElement;

const NOT_TEXT = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'range',
  'color',
  'file',
]);

export function textFieldOf(target: EventTarget | null): TextField | null {
  if (target instanceof HTMLTextAreaElement) return target;
  if (target instanceof HTMLInputElement && !NOT_TEXT.has(target.type)) return target;
  return null;
}

/** Sets a React-controlled field's value the way typing does, so its state follows. */
export function setFieldValue(field: TextField, value: string): void {
  const prototype =
    field instanceof HTMLTextAreaElement
      ? HTMLTextAreaElement.prototype
      : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}
