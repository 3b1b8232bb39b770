/**
 * Inkwell's own site export (docs/site-export.md): `site.json` inside the export zip, beside
 * `posts/<slug>.md` (each post as Markdown with front matter) and `images/thumbnails/…`. The
 * format is versioned: a reader refuses a version it does not know.
 */
export const SITE_EXPORT_FORMAT = 'inkwell-site-export';
export const SITE_EXPORT_VERSION = 1;

export interface ExportedUser {
  id: number;
  fullName: string;
  email: string;
  bio: string | null;
  roles: string[];
  createdAt: string;
}

export interface ExportedTag {
  id: number;
  name: string;
  slug: string;
  description: string | null;
  color: string | null;
  icon: string | null;
  active: boolean;
}

export interface ExportedComment {
  id: number;
  parentId: number | null;
  authorId: number | null;
  content: string;
  createdAt: string;
  /** VISIBLE or HELD (a hidden comment is exported HELD: it waits for a moderator again). */
  visibility: 'VISIBLE' | 'HELD';
}

export interface ExportedPost {
  id: number;
  title: string;
  slug: string;
  summary: string | null;
  /** Markdown. */
  content: string;
  status: string;
  authorId: number;
  tagIds: number[];
  /** A path inside the zip ('images/thumbnails/….webp'), or an address elsewhere, or null. */
  thumbnail: string | null;
  isFeatured: boolean;
  seo: {
    metaTitle: string | null;
    metaDescription: string | null;
    canonicalUrl: string | null;
    noindex: boolean;
    socialImage: string | null;
  };
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
  scheduledAt: string | null;
  /** Slugs it had before (its /blog/{old} redirects). */
  earlierSlugs: string[];
  /** Paths of a former site that lead to it (an earlier import's redirects). */
  oldPaths: string[];
  /** Its Markdown file in the zip. */
  markdownFile: string;
  comments: ExportedComment[];
}

export interface SiteExportDocument {
  format: typeof SITE_EXPORT_FORMAT;
  version: number;
  exportedAt: string;
  /** The exporting site's address (PUBLIC_URL): an import of the same site's export twice adds nothing. */
  site: string;
  users: ExportedUser[];
  tags: ExportedTag[];
  posts: ExportedPost[];
}
