/**
 * Every table's narrow-screen form: the table keeps its columns (each at least as wide as its
 * longest word, from the table's min-width) and scrolls sideways inside this frame, a focusable,
 * named region (the keyboard scrolls it too), with a shadow on each side that holds more and a
 * line saying so. The back-office lists (AdminTable), the webhook delivery log, the import report
 * and the notification settings all use it.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';

/** Which sides of a scrolling frame hold more of its content (its shadows and the hint follow them). */
function useScrollEdges() {
  const frame = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ start: false, end: false });
  useEffect(() => {
    const element = frame.current;
    if (!element) return;
    const update = () => {
      const start = element.scrollLeft > 1;
      const end = element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setEdges((current) => (current.start === start && current.end === end ? current : { start, end }));
    };
    update();
    element.addEventListener('scroll', update, { passive: true });
    const observer = new ResizeObserver(update);
    observer.observe(element);
    if (element.firstElementChild) observer.observe(element.firstElementChild);
    return () => {
      element.removeEventListener('scroll', update);
      observer.disconnect();
    };
  }, []);
  return { frame, edges };
}

const SHADOW = 'pointer-events-none absolute inset-y-0 w-6 from-slate-900/15 to-transparent dark:from-black/70';

export function TableFrame({ label, loading = false, children }: { label: string; loading?: boolean; children: ReactNode }) {
  const { frame, edges } = useScrollEdges();
  const scrolls = edges.start || edges.end;
  return (
    <div>
      {scrolls && (
        <p className="mb-2 text-xs text-slate-600 dark:text-slate-400" data-testid="table-scroll-hint">
          <span aria-hidden="true">↔ </span>Scroll sideways to see every column.
        </p>
      )}
      <div className={`card relative overflow-hidden transition-opacity ${loading ? 'opacity-60' : ''}`}>
        {/* `relative`: the headers' screen-reader texts (absolutely placed) are held and clipped by the
            scrolling frame, not placed against the page, which they would widen on a small screen. */}
        <div ref={frame} role="region" aria-label={label} tabIndex={0} className="relative overflow-x-auto">
          {children}
        </div>
        {edges.start && <div aria-hidden="true" className={`${SHADOW} left-0 bg-linear-to-r`} />}
        {edges.end && <div aria-hidden="true" className={`${SHADOW} right-0 bg-linear-to-l`} />}
      </div>
    </div>
  );
}
