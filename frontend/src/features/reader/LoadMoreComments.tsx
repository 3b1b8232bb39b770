import { useLoadMore } from '../../components/islands/use-load-more';
import { MyCommentsTexts } from './texts';

interface Props {
  /** The same page with more comments (?comments=N): a plain link that works without JavaScript. */
  href: string;
  /** id of the list whose items are replaced by the longer list. */
  listId: string;
}

/**
 * 'Load More Comments' (spec 000 §2, the comment list's non-paginated mode): without JavaScript
 * a link to the page with more comments. Hydrated, it fetches that page, puts its longer list in
 * place ('Loading more...' meanwhile), moves focus to the first new comment and points itself at
 * the next step, or disappears when no more remain.
 */
export default function LoadMoreComments({ href, listId }: Props) {
  const { next, loading, error, loadMore, status, announce } = useLoadMore(href, MyCommentsTexts.LOAD_FAILED);

  function replaceItems(page: Document, list: HTMLElement): string | undefined {
    const items = [...page.querySelectorAll(`#${CSS.escape(listId)} [data-comment-item]`)];
    const before = list.querySelectorAll('[data-comment-item]').length;
    list.replaceChildren(...items.map((item) => document.importNode(item, true)));
    const added = items.length - before;
    announce(`${Math.max(0, added)} more comments loaded`);
    list.querySelectorAll('[data-comment-item]')[before]?.querySelector<HTMLElement>('a')?.focus();
    return page.querySelector('[data-load-more-comments]')?.getAttribute('href') ?? undefined;
  }

  return (
    <div className="mt-4 flex flex-col items-center gap-2">
      <p ref={status} className="sr-only" aria-live="polite" />
      {error && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      {next && (
        <a href={next} data-load-more-comments className="btn-secondary" onClick={(event) => void loadMore(event, document.getElementById(listId), replaceItems)} aria-busy={loading}>
          {loading ? MyCommentsTexts.LOADING_MORE : error ? 'Try Again' : MyCommentsTexts.LOAD_MORE}
        </a>
      )}
    </div>
  );
}
