import LoadMore from '../../components/islands/LoadMore';
import { MyCommentsTexts } from './texts';

interface Props {
  /** The same page with more comments (?comments=N): a plain link that works without JavaScript. */
  href: string;
  /** id of the list whose items are replaced by the longer list. */
  listId: string;
}

const TEXTS = { idle: MyCommentsTexts.LOAD_MORE, loading: MyCommentsTexts.LOADING_MORE, failed: MyCommentsTexts.LOAD_FAILED, loaded: (count: number) => `${count} more comments loaded` };

/** 'Load More Comments' (spec 000 §2, the comment list's non-paginated mode): the longer list replaces the shown one. */
export default function LoadMoreComments({ href, listId }: Props) {
  return (
    <LoadMore
      href={href}
      containerId={listId}
      itemAttribute="data-comment-item"
      linkAttribute="data-load-more-comments"
      mode="replace"
      texts={TEXTS}
      focusSelector="a"
      className="mt-4 flex flex-col items-center gap-2"
      linkClassName="btn-secondary"
    />
  );
}
