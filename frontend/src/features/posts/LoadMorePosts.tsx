import LoadMore, { type LoadMoreProps } from '../../components/islands/LoadMore';
import { PostsTexts } from './texts';

/** A post grid's 'Load More Posts': the next page's cards (the same cached HTML) are appended. */
const POST_GRID: Omit<LoadMoreProps, 'href' | 'containerId'> = {
  itemAttribute: 'data-post-card',
  linkAttribute: 'data-load-more',
  mode: 'append',
  texts: { idle: 'Load More Posts', loading: 'Loading...', failed: PostsTexts.LIST_FAILED, loaded: PostsTexts.moreLoaded },
  focusSelector: 'h3 a',
  containerClasses: ['md:grid-cols-2', 'lg:grid-cols-3'],
  className: 'mt-10 flex flex-col items-center gap-3',
  linkClassName: 'btn-secondary px-6',
};

/** `href`: the next page's address (e.g. /blog?page=2), a plain link without JavaScript; `gridId`: the grid the cards join. */
export default function LoadMorePosts({ href, gridId }: { href: string; gridId: string }) {
  return <LoadMore href={href} containerId={gridId} {...POST_GRID} />;
}
