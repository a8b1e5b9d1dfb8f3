import { useEffect, useRef, useState, type ReactNode } from 'react';

export interface VirtualListProps<T> {
  readonly items: readonly T[];
  /** Every row has this height in CSS pixels: positions are computed, never measured. */
  readonly rowHeight: number;
  readonly label: string;
  readonly getKey: (item: T, index: number) => string;
  readonly renderRow: (item: T, index: number) => ReactNode;
  /** Called when the last rows come into view: the place to load the next page. */
  readonly onEndReached?: () => void;
  /** Rows rendered above and below the visible ones, so a fast flick shows no blank. */
  readonly overscan?: number;
}

/** Before layout, when the window has no height either (jsdom), render as if the list were this tall. */
const FALLBACK_HEIGHT = 800;

/**
 * A windowed list: only the rows in view (plus `overscan`) are in the DOM, placed by transform
 * inside a spacer as tall as the whole list, so thousands of rows scroll as smoothly as twenty.
 * Fixed row heights keep it simple; the kiosk's rows are designed to one height.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  label,
  getKey,
  renderRow,
  onEndReached,
  overscan = 6,
}: VirtualListProps<T>) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(0);

  useEffect(() => {
    const element = viewport.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    // The observer's first call comes once the page is laid out, where reading the height costs
    // nothing; read here, in the first screen's effects, it laid the whole page out before its
    // frame did (about 20 ms of the first screen), and the frame did it again.
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Until the list is measured (after its first frame), the window's height, which it never
  // exceeds, and no rows around the visible ones: those are for scrolling, which cannot start
  // before that frame is on screen, and they were half the first screen's rows to build and lay out.
  const measured = height > 0;
  const viewHeight = measured ? height : window.innerHeight || FALLBACK_HEIGHT;
  const around = measured ? overscan : 0;
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - around);
  const last = Math.min(items.length, Math.ceil((scrollTop + viewHeight) / rowHeight) + around);

  const endReached = last >= items.length - overscan;
  useEffect(() => {
    if (endReached && items.length > 0) onEndReached?.();
  }, [endReached, items.length, onEndReached]);

  const rows: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const item = items[index] as T;
    rows.push(
      <li
        key={getKey(item, index)}
        className="virtual-row"
        aria-setsize={items.length}
        aria-posinset={index + 1}
        style={{ height: rowHeight, transform: `translateY(${index * rowHeight}px)` }}
      >
        {renderRow(item, index)}
      </li>,
    );
  }

  return (
    <div
      ref={viewport}
      className="virtual-list"
      role="region"
      aria-label={label}
      // Scrollable with the keyboard too, not only by touch.
      tabIndex={0}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
    >
      <ul className="virtual-list-body" style={{ height: items.length * rowHeight }}>
        {rows}
      </ul>
    </div>
  );
}
