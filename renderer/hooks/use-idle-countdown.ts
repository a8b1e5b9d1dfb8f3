import { useEffect, useRef, useState } from 'react';

/** What counts as someone using the kiosk. */
const activity = ['pointerdown', 'keydown', 'wheel', 'input'] as const;

/**
 * Like `useIdle`, with a warning: the last `warnMs` before `onIdle` are counted down (whole
 * seconds left, else null), so whoever is still at the kiosk sees it coming and one touch keeps
 * everything. Inactive (or `ms` 0): nothing is counted and nothing fires.
 */
export function useIdleCountdown(
  ms: number,
  warnMs: number,
  onIdle: () => void,
  active: boolean,
): number | null {
  const callback = useRef(onIdle);
  const [left, setLeft] = useState<number | null>(null);
  useEffect(() => {
    callback.current = onIdle;
  });
  useEffect(() => {
    if (!active || ms <= 0) return undefined;
    let deadline = 0;
    let warn: ReturnType<typeof setTimeout> | undefined;
    let tick: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      clearTimeout(warn);
      clearInterval(tick);
    };
    const count = () => {
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        stop();
        setLeft(null);
        callback.current();
        return;
      }
      setLeft(Math.ceil(remaining / 1_000));
    };
    const restart = () => {
      stop();
      setLeft(null);
      deadline = Date.now() + ms;
      warn = setTimeout(
        () => {
          count();
          tick = setInterval(count, 250);
        },
        Math.max(0, ms - warnMs),
      );
    };
    restart();
    for (const type of activity) {
      document.addEventListener(type, restart, { capture: true, passive: true });
    }
    return () => {
      stop();
      setLeft(null);
      for (const type of activity) document.removeEventListener(type, restart, { capture: true });
    };
  }, [ms, warnMs, active]);
  return active ? left : null;
}
