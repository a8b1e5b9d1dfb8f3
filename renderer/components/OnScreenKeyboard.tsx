import { ArrowBigUp, CornerDownLeft, Delete, Keyboard, X } from 'lucide-react';
import { type CSSProperties, useEffect, useLayoutEffect, useState, type PointerEvent } from 'react';
import { useKiosk } from '../hooks/use-store.ts';
import type { MessageKey } from '../i18n/catalogue.ts';
import { useI18n } from '../i18n/use-i18n.ts';
import {
  type LayoutName,
  type SpecialKey,
  isSpecial,
  layoutFor,
  layoutRows,
  nextLayout,
} from '../input/keyboard-layouts.ts';
import { setFieldValue, type TextField, textFieldOf } from '../input/text-field.ts';

/**
 * Where typing goes in the field: its selection, or its end where the field has none to give
 * (e-mail and number fields keep their selection to themselves).
 */
function selectionOf(field: TextField): [number, number] {
  const end = field.value.length;
  try {
    return [field.selectionStart ?? end, field.selectionEnd ?? end];
  } catch {
    return [end, end];
  }
}

function placeCaret(field: TextField, at: number): void {
  try {
    if (field.selectionStart !== null) field.setSelectionRange(at, at);
  } catch {
    // No caret to place in this kind of field: typing goes to its end anyway.
  }
}

/**
 * A keyboard on the screen for touch-only kiosks: it opens under the text field that takes the
 * focus, in the layout that field asks for (letters as the kiosk's language lays them out, an
 * e-mail layout, digits), and types into that field only. Its keys never take the focus, so the
 * field keeps its caret; Enter submits the field's form. The amount's own keypad needs none.
 */
export function OnScreenKeyboard() {
  const { t, locale } = useI18n();
  const setting = useKiosk('setup', (s) => s.settings?.settings.onScreenKeyboard ?? 'auto');
  const host = useKiosk('connectivity', (s) => s.status?.host ?? null);
  const enabled = setting === 'on' || (setting === 'auto' && host === 'electron');
  const [field, setField] = useState<TextField | null>(null);
  const [asked, setAsked] = useState<LayoutName>('letters');
  const [layout, setLayout] = useState<LayoutName>('letters');
  const [shift, setShift] = useState(false);

  useEffect(() => {
    if (!enabled) return undefined;
    const onFocus = (event: FocusEvent) => {
      const target = textFieldOf(event.target);
      if (target === null || target.readOnly) return;
      // inputMode "none": the field has a keypad of its own (the amount); this keyboard goes,
      // so that it neither covers that keypad nor types into the field it came for.
      if (target.inputMode === 'none') {
        setField(null);
        return;
      }
      const wanted = layoutFor(target);
      setField(target);
      setAsked(wanted);
      setLayout(wanted);
      setShift(false);
    };
    // The focus went to something else than a text field (a button, another screen): closed.
    // Its own keys never take the focus, so typing on them keeps it open.
    const onBlur = (event: FocusEvent) => {
      if (textFieldOf(event.target) !== null && textFieldOf(event.relatedTarget) === null)
        setField(null);
    };
    document.addEventListener('focusin', onFocus);
    document.addEventListener('focusout', onBlur);
    return () => {
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('focusout', onBlur);
    };
  }, [enabled]);
  // A field that leaves the page (a search that found its customer) takes the keyboard with it.
  useEffect(() => {
    if (field === null) return undefined;
    const watch = new MutationObserver(() => {
      if (!field.isConnected) setField(null);
    });
    watch.observe(document.body, { childList: true, subtree: true });
    return () => watch.disconnect();
  }, [field]);
  // Room under the screen for the keyboard, and the field kept in sight above it.
  const open = enabled && field !== null;
  useEffect(() => {
    if (!open) return undefined;
    document.body.dataset['keyboard'] = 'open';
    field.scrollIntoView?.({ block: 'center' });
    return () => {
      delete document.body.dataset['keyboard'];
    };
  }, [open, field]);

  // Beside what the screen marks as not to be covered (the gift-card screen's keypad and Débiter)
  // when that stands to the right; at every size, measured, since the screen's width is capped.
  const [dock, setDock] = useState<CSSProperties | undefined>(undefined);
  useLayoutEffect(() => {
    if (!open) return undefined;
    const place = () => {
      const avoid = document.querySelector('[data-keyboard-avoid]');
      const left = avoid?.getBoundingClientRect().left ?? 0;
      setDock(
        avoid && left > window.innerWidth * 0.4
          ? { right: `${Math.ceil(window.innerWidth - left) + 8}px` }
          : undefined,
      );
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open, field]);

  if (!enabled || field === null || !field.isConnected) return null;

  const type = (text: string) => {
    const [start, end] = selectionOf(field);
    setFieldValue(field, field.value.slice(0, start) + text + field.value.slice(end));
    placeCaret(field, start + text.length);
    setShift(false);
  };
  const press = (key: string) => {
    if (!isSpecial(key)) return type(shift ? key.toLocaleUpperCase(locale) : key);
    const actions: Record<SpecialKey, () => void> = {
      shift: () => setShift(!shift),
      space: () => type(' '),
      layout: () => setLayout(nextLayout(layout, asked)),
      backspace: () => {
        const [start, end] = selectionOf(field);
        const from = start === end ? Math.max(0, start - 1) : start;
        setFieldValue(field, field.value.slice(0, from) + field.value.slice(end));
        placeCaret(field, from);
      },
      enter: () => field.form?.requestSubmit(),
    };
    actions[key]();
  };
  // The key acts on the press and the field keeps the focus (no blur, no caret lost).
  const keep = (event: PointerEvent) => event.preventDefault();
  const label = (key: string) =>
    isSpecial(key)
      ? {
          shift: <ArrowBigUp aria-hidden="true" />,
          backspace: <Delete aria-hidden="true" />,
          enter: <CornerDownLeft aria-hidden="true" />,
          space: null,
          layout: layout === 'numeric' ? 'abc' : '123',
        }[key]
      : shift
        ? key.toLocaleUpperCase(locale)
        : key;
  const names: Readonly<Record<SpecialKey, MessageKey>> = {
    shift: 'keyboard.shift',
    backspace: 'keyboard.backspace',
    enter: 'keyboard.enter',
    space: 'keyboard.space',
    layout: layout === 'numeric' ? 'keyboard.letters' : 'keyboard.digits',
  };
  const name = (key: string) => (isSpecial(key) ? t(names[key]) : undefined);

  return (
    <div
      className="on-screen-keyboard"
      role="group"
      aria-label={t('keyboard.label')}
      data-testid="on-screen-keyboard"
      data-layout={layout}
      data-docked={dock ? '' : undefined}
      style={dock}
      onPointerDown={keep}
    >
      <div className="osk-head">
        <Keyboard aria-hidden="true" />
        <button
          type="button"
          className="button osk-close"
          aria-label={t('keyboard.close')}
          onClick={() => setField(null)}
        >
          <X aria-hidden="true" />
        </button>
      </div>
      {layoutRows(layout, locale).map((row, index) => (
        <div key={index} className="osk-row">
          {row.map((key) => (
            <button
              key={key}
              type="button"
              tabIndex={-1}
              className={`osk-key osk-${isSpecial(key) ? key : 'char'}`}
              aria-label={name(key)}
              aria-pressed={key === 'shift' ? shift : undefined}
              onClick={() => press(key)}
            >
              {label(key)}
            </button>
          ))}
        </div>
      ))}
    </div>
  );
}
