import { useEffect, useRef } from 'react';

/** What counts as someone using the kiosk. */
const activity = ['pointerdown', 'keydown', 'wheel', 'input'] as const;

/**
 * Calls `onIdle` once `ms` pass, while `active`, without a touch, click, key or scroll anywhere
 * on the page; each of them starts the wait again. Renders do not: a screen that updates itself
 * (an outbox count, a sync progress) is not someone using the kiosk.
 */
export function useIdle(ms: number, onIdle: () => void, active: boolean): void {
  const callback = useRef(onIdle);
  useEffect(() => {
    callback.current = onIdle;
  });
  useEffect(() => {
    if (!active) return undefined;
    const fire = () => callback.current();
    let timer = setTimeout(fire, ms);
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(fire, ms);
    };
    for (const type of activity) {
      document.addEventListener(type, restart, { capture: true, passive: true });
    }
    return () => {
      clearTimeout(timer);
      for (const type of activity) document.removeEventListener(type, restart, { capture: true });
    };
  }, [ms, active]);
}
