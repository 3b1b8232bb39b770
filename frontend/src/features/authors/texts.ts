/** Texts of an author's page (/authors/{slug}) and the author links on cards and posts. */
export const AuthorTexts = {
  AUTHOR_NOT_FOUND: 'Author Not Found',
  AUTHOR_NOT_FOUND_MESSAGE: 'This author does not exist or has no published posts yet.',
  AUTHOR_FAILED: 'Unable to load this author',
  POSTS_HEADING: 'Published posts',
  POSTS_FAILED: 'Failed to load posts',
  POSTS_EMPTY: 'No more posts',
  FIRST_PAGE: 'Back to the latest posts',
  FEED_LINK: 'RSS feed',
  ALL_AUTHORS: 'All authors',
  joined: (date: string) => `Joined ${date}`,
  feedTitle: (name: string) => `Posts by ${name}`,
  /** The author link's accessible name on cards and posts. */
  authorPage: (name: string) => `${name}: author page`,
  pageTitle: (name: string, page: number) => (page > 0 ? `${name} (page ${page + 1})` : name),
  description: (name: string, bio: string | null) => bio?.trim() || `Stories by ${name} on Inkwell.`,
} as const;

/** The address of an author's page. */
export const authorHref = (slug: string): string => `/authors/${slug}`;
/** The address of an author's feed. */
export const authorFeedHref = (slug: string): string => `/authors/${slug}/rss.xml`;
