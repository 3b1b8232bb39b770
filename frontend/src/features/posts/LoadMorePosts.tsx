import LoadMore from '../../components/islands/LoadMore';
import { PostsTexts } from './texts';

interface Props {
  /** The next page's address (e.g. /blog?page=2): a plain link that works without JavaScript. */
  href: string;
  /** id of the grid the next page's cards are appended to. */
  gridId: string;
}

const TEXTS = { idle: 'Load More Posts', loading: 'Loading...', failed: PostsTexts.LIST_FAILED, loaded: PostsTexts.moreLoaded };
const GRID_COLUMNS = ['md:grid-cols-2', 'lg:grid-cols-3'];

/** 'Load More Posts' under a post grid: the next page's cards are appended (the same cached HTML). */
export default function LoadMorePosts({ href, gridId }: Props) {
  return (
    <LoadMore
      href={href}
      containerId={gridId}
      itemAttribute="data-post-card"
      linkAttribute="data-load-more"
      mode="append"
      texts={TEXTS}
      focusSelector="h3 a"
      containerClasses={GRID_COLUMNS}
      className="mt-10 flex flex-col items-center gap-3"
      linkClassName="btn-secondary px-6"
    />
  );
}
