import { useRef, useState, type MouseEvent } from 'react';
import { PostsTexts } from './texts';

interface Props {
  /** The next page's address (e.g. /blog?page=2): a plain link that works without JavaScript. */
  href: string;
  /** id of the grid the next page's cards are appended to. */
  gridId: string;
}

/**
 * 'Load More Posts': without JavaScript a link to the next page. Hydrated, it fetches that page
 * (the same server-rendered, cached HTML), appends its cards to the grid and points itself at the
 * page after, or disappears on the last page.
 */
export default function LoadMorePosts({ href, gridId }: Props) {
  const [next, setNext] = useState<string | undefined>(href);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();
  const status = useRef<HTMLParagraphElement>(null);

  async function loadMore(event: MouseEvent<HTMLAnchorElement>) {
    const grid = document.getElementById(gridId);
    if (!next || !grid || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setLoading(true);
    setError(undefined);
    try {
      const response = await fetch(next, { headers: { Accept: 'text/html' } });
      if (!response.ok) throw new Error(String(response.status));
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const cards = [...page.querySelectorAll(`#${CSS.escape(gridId)} [data-post-card]`)];
      const first = cards[0];
      for (const card of cards) grid.append(document.importNode(card, true));
      grid.classList.add('md:grid-cols-2', 'lg:grid-cols-3');
      const following = page.querySelector<HTMLAnchorElement>('[data-load-more]')?.getAttribute('href') ?? undefined;
      setNext(following);
      if (status.current) status.current.textContent = PostsTexts.moreLoaded(cards.length);
      if (first) (grid.querySelector(`[data-post-card]:nth-child(${grid.children.length - cards.length + 1}) h3 a`) as HTMLElement | null)?.focus();
    } catch {
      setError(PostsTexts.LIST_FAILED);
    } finally {
      setLoading(false);
    }
  }

  return (
    <div className="mt-10 flex flex-col items-center gap-3">
      <p ref={status} className="sr-only" aria-live="polite" />
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {next && (
        <a href={next} data-load-more className="btn-secondary px-6" onClick={loadMore} aria-busy={loading}>
          {loading ? 'Loading...' : error ? 'Try Again' : 'Load More Posts'}
        </a>
      )}
    </div>
  );
}
