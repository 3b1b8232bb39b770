import type { PostStatus } from '../../posts/entities/post.entity';
import type { RoleName } from '../../users/roles';

/**
 * What every source (WordPress WXR, Ghost JSON, an Inkwell export) is read into: plain records with
 * the source's own ids, handed to the importer one at a time (a post with its comments), so a file
 * of any size is never held whole.
 */
export interface SourceUser {
  sourceId: string;
  fullName: string;
  email: string;
  bio?: string | null;
  /** Inkwell exports name roles; WordPress and Ghost authors become AUTHORs. */
  roles?: RoleName[];
}

export interface SourceTag {
  sourceId: string;
  name: string;
  slug: string;
  description?: string | null;
  active?: boolean;
  color?: string | null;
  icon?: string | null;
}

export interface SourceComment {
  sourceId: string;
  parentSourceId: string | null;
  /** Plain text. */
  content: string;
  authorName: string;
  authorEmail: string | null;
  createdAt: Date | null;
  /** Approved (VISIBLE) or waiting (HELD); spam and trash are not handed over. */
  approved: boolean;
}

export interface SourcePost {
  sourceId: string;
  title: string;
  slug: string | null;
  /** Markdown, already converted. */
  markdown: string;
  summary: string | null;
  /** null: a status this site has no equivalent for (the importer skips the post, saying which). */
  status: PostStatus | null;
  /** The source's own word for its status, for the report. */
  sourceStatus: string;
  createdAt: Date | null;
  updatedAt: Date | null;
  publishedAt: Date | null;
  scheduledAt?: Date | null;
  authorSourceId: string | null;
  tagSourceIds: string[];
  /** Tags the post names that the file may not list on their own (a WordPress item's terms): created when unknown. */
  inlineTags?: SourceTag[];
  /** The featured image: a URL of the former site (found in the media zip by its path) or a path inside an Inkwell export. */
  featuredImage: string | null;
  oldPaths: string[];
  earlierSlugs?: string[];
  isFeatured?: boolean;
  seo?: {
    metaTitle?: string | null;
    metaDescription?: string | null;
    canonicalUrl?: string | null;
    noindex?: boolean;
    socialImage?: string | null;
  };
  comments: SourceComment[];
  /** What the reader changed on the way in, for the report (a password-protected post kept as a draft). */
  changes?: { from: string; to: string; reason: string }[];
}

/**
 * The most text one record of the file (a WordPress <item> with its comments, an element of a Ghost
 * or Inkwell export's array) may hold: past it the reader keeps none of the rest and the item is
 * skipped, saying why (OVERSIZED_ITEM). A post longer than this could not be stored anyway (posts
 * hold 200,000 characters of Markdown); the cap keeps the import's memory bounded whatever the
 * file holds.
 */
export const ITEM_TEXT_MAX = 5 * 1024 * 1024;

/** The report's reason for an item over ITEM_TEXT_MAX, whatever the source. */
export const OVERSIZED_ITEM = `It holds more than ${ITEM_TEXT_MAX / 1024 / 1024} MB of text (the most one item may hold).`;

/** A source item the reader leaves out (a pingback, an oversized item, a menu entry), for the report. */
export interface SourceSkip {
  kind: 'user' | 'tag' | 'post' | 'comment' | 'image';
  sourceId: string;
  title: string;
  reason: string;
}

export type SourceRecord =
  | { type: 'user'; user: SourceUser }
  | { type: 'tag'; tag: SourceTag }
  | { type: 'post'; post: SourcePost }
  | { type: 'skip'; skip: SourceSkip };

/** What a first pass over a file learns: whether it is what it says, its site, how many posts it holds. */
export interface SourceSurvey {
  /** The site's identity for idempotency: its address, or the file's digest. */
  origin: string;
  posts: number;
}

/**
 * A copy of `text` that keeps no part of the file alive. V8 makes a substring a view of the string
 * it was cut from, and a reader's strings are cut from the chunks it reads the file in: one short id
 * kept for the whole run (an attachment's address, a report row, a commenter's e-mail) would hold
 * its chunk, and a 10,000-post export's survey alone kept most of the file (about 50 MB).
 * Everything an import keeps past the record it came from goes through this.
 */
export function ownCopy(text: string): string {
  return text.length ? (JSON.parse(JSON.stringify(text)) as string) : text;
}

/** A file that is not the format it was given as: the import stops before writing anything. */
export class BadSourceFile extends Error {}
