/**
 * Texts of the reading pages (docs/requirements.md#screen-tag-posts): post lists, a post, posts by tag, latest stories,
 * authors and 'Load More Posts': load failures, empty lists and missing posts or tags.
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';

export const PostsTexts = {
  LIST_FAILED: 'Failed to fetch posts',
  LIST_EMPTY: 'No blog posts yet',
  moreLoaded: (count: number) => `${countNoun(count, Nouns.MORE_POST)} loaded`,
  POST_FAILED: 'Unable to load post',
  POST_NOT_FOUND: 'Post Not Found',
  POST_NOT_FOUND_MESSAGE: 'The post you are looking for does not exist or has been deleted.',
  POST_URL_INVALID: 'Invalid post URL',
  POST_URL_INVALID_MESSAGE: 'Post addresses use lowercase letters, numbers and hyphens only.',
  STORIES_FAILED: 'Unable to Load Stories',
  STORIES_EMPTY: 'No Stories Yet',
  STORIES_EMPTY_MESSAGE: 'Stories appear here as soon as they are published.',
  TAG_NOT_FOUND: 'Tag Not Found',
  tagNotFound: (slug: string) => `Tag "${slug}" not found`,
  TAG_MISSING: 'No tag specified in URL',
  TAG_POSTS_FAILED: 'Failed to load posts by tag',
  TAG_POSTS_EMPTY: 'No posts found for tag',
  AUTHORS_FAILED: 'Unable to load authors',
  AUTHORS_EMPTY: 'No authors yet',
  AUTHORS_EMPTY_MESSAGE: 'Authors appear here once their first post is published.',
  RELATED_HEADING: 'Related posts',
} as const;
