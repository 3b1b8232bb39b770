import { useRef, useState, type MouseEvent } from 'react';

export interface LoadMoreTexts {
  idle: string;
  loading: string;
  failed: string;
  /** The live region's words once the items are in ('3 more posts loaded'). */
  loaded: (count: number) => string;
}

export interface LoadMoreProps {
  /** The address with more items (the next page, or the same page with a longer list): a plain link that works without JavaScript. */
  href: string;
  /** id of the element holding the items, on this page and on the fetched one. */
  containerId: string;
  /** The attribute that marks an item ('data-post-card'). */
  itemAttribute: string;
  /** The attribute that marks this link, on the fetched page too: its href there is the next step. */
  linkAttribute: string;
  /** 'append': the fetched page holds the next items; 'replace': it holds the whole, longer list. */
  mode: 'append' | 'replace';
  texts: LoadMoreTexts;
  /** Inside the first new item, what takes the focus. */
  focusSelector: string;
  /** Classes the container takes once it holds more (the grid's columns). */
  containerClasses?: readonly string[];
  className: string;
  linkClassName: string;
}

/**
 * 'Load More' of a list that is not paged on screen (the post grids, the reader's comments):
 * without JavaScript a link to the address with more items. Hydrated, it fetches that address
 * (the same server-rendered HTML), puts its items in place, moves the focus to the first new one,
 * says how many came in a live region, and points itself at the next step, or disappears when
 * no more remain.
 */
export default function LoadMore({
  href,
  containerId,
  itemAttribute,
  linkAttribute,
  mode,
  texts,
  focusSelector,
  containerClasses = [],
  className,
  linkClassName,
}: LoadMoreProps) {
  const [next, setNext] = useState<string | undefined>(href);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const status = useRef<HTMLParagraphElement>(null);

  async function loadMore(event: MouseEvent<HTMLAnchorElement>) {
    const container = document.getElementById(containerId);
    if (!next || !container || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setLoading(true);
    setError(undefined);
    try {
      const response = await fetch(next, { headers: { Accept: 'text/html' } });
      if (!response.ok) throw new Error(String(response.status));
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const items = [...page.querySelectorAll(`#${CSS.escape(containerId)} [${itemAttribute}]`)].map((item) =>
        document.importNode(item, true),
      );
      const before = container.querySelectorAll(`[${itemAttribute}]`).length;
      if (mode === 'append') container.append(...items);
      else container.replaceChildren(...items);
      container.classList.add(...containerClasses);
      setNext(page.querySelector(`[${linkAttribute}]`)?.getAttribute('href') ?? undefined);
      if (status.current) status.current.textContent = texts.loaded(mode === 'append' ? items.length : Math.max(0, items.length - before));
      container.querySelectorAll(`[${itemAttribute}]`)[before]?.querySelector<HTMLElement>(focusSelector)?.focus();
    } catch {
      setError(texts.failed);
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className={className}>
      <p ref={status} className="sr-only" aria-live="polite" />
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {next && (
        <a href={next} {...{ [linkAttribute]: true }} className={linkClassName} onClick={loadMore} aria-busy={loading}>
          {loading ? texts.loading : error ? 'Try Again' : texts.idle}
        </a>
      )}
    </div>
  );
}
