import { useEffect, useRef } from 'react';
import {
  ScanDetector,
  type ScanOutcome,
  type ScanTiming,
  defaultScanTiming,
} from '../input/scan-detector.ts';
import { type TextField, setFieldValue, textFieldOf } from '../input/text-field.ts';

/**
 * A kiosk-wide barcode scanner: a burst of characters ended by Enter, wherever the focus is, is
 * handed to `onScan` and to nothing else, whether read whole or broken (then staff are told). When
 * the focus was in a text field, the field gets back what it held before the burst (a scan never
 * lands in the wrong field, a broken one never stays there as a partial code) and its form is not
 * submitted. Slow typing is left alone.
 */
export function useScanner(
  onScan: (outcome: ScanOutcome) => void,
  timing: ScanTiming = defaultScanTiming,
): void {
  const callback = useRef(onScan);
  useEffect(() => {
    callback.current = onScan;
  });
  useEffect(() => {
    const detector = new ScanDetector(timing);
    let field: TextField | null = null;
    let before = '';
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) return;
      if (event.key === 'Enter') {
        const outcome = detector.enter(event.timeStamp);
        if (outcome === null) return;
        event.preventDefault();
        event.stopPropagation();
        if (field) setFieldValue(field, before);
        field = null;
        callback.current({ ...outcome, code: outcome.code.trim() });
        return;
      }
      if (event.key.length !== 1) {
        detector.reset();
        return;
      }
      // Keydown comes before the character is inserted: the field still holds its old value.
      if (detector.character(event.key, event.timeStamp)) {
        field = textFieldOf(event.target);
        before = field?.value ?? '';
      }
    };
    document.addEventListener('keydown', onKeyDown, { capture: true });
    return () => document.removeEventListener('keydown', onKeyDown, { capture: true });
  }, [timing]);
}
