import LoadMore, { type LoadMoreProps } from '../../components/islands/LoadMore';
import { MyCommentsTexts } from './texts';

/** 'Load More Comments' (docs/requirements.md#comment-list-widget, the comment list's non-paginated mode): the longer list replaces the shown one. */
const COMMENT_LIST: Omit<LoadMoreProps, 'href' | 'containerId'> = {
  itemAttribute: 'data-comment-item',
  linkAttribute: 'data-load-more-comments',
  mode: 'replace',
  texts: {
    idle: MyCommentsTexts.LOAD_MORE,
    loading: MyCommentsTexts.LOADING_MORE,
    failed: MyCommentsTexts.LOAD_FAILED,
    loaded: MyCommentsTexts.moreLoaded,
  },
  focusSelector: 'a',
  className: 'mt-4 flex flex-col items-center gap-2',
  linkClassName: 'btn-secondary',
};

/** `href`: the same page with more comments (?comments=N), a plain link without JavaScript; `listId`: the list it replaces. */
export default function LoadMoreComments({ href, listId }: { href: string; listId: string }) {
  return <LoadMore href={href} containerId={listId} {...COMMENT_LIST} />;
}
