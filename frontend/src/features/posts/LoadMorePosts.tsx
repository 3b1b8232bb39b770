import { useLoadMore } from '../../components/islands/use-load-more';
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
  const { next, loading, error, loadMore, status, announce } = useLoadMore(href, PostsTexts.LIST_FAILED);

  function appendCards(page: Document, grid: HTMLElement): string | undefined {
    const cards = [...page.querySelectorAll(`#${CSS.escape(gridId)} [data-post-card]`)];
    const first = cards[0];
    for (const card of cards) grid.append(document.importNode(card, true));
    grid.classList.add('md:grid-cols-2', 'lg:grid-cols-3');
    announce(PostsTexts.moreLoaded(cards.length));
    if (first) (grid.querySelector(`[data-post-card]:nth-child(${grid.children.length - cards.length + 1}) h3 a`) as HTMLElement | null)?.focus();
    return page.querySelector<HTMLAnchorElement>('[data-load-more]')?.getAttribute('href') ?? undefined;
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
        <a href={next} data-load-more className="btn-secondary px-6" onClick={(event) => void loadMore(event, document.getElementById(gridId), appendCards)} aria-busy={loading}>
          {loading ? 'Loading...' : error ? 'Try Again' : 'Load More Posts'}
        </a>
      )}
    </div>
  );
}
