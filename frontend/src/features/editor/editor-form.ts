/**
 * The post editor's form (docs/requirements.md#data-post), its checks (docs/requirements.md#validation-post, in the spec's
 * order) and the payload it sends (docs/requirements.md#data-post 'Post create payload' / 'Author-create payload'). Pure: the
 * island and the helper tests share it.
 */
import type { components } from '@inkwell/client/schema';
import { EditorTexts } from './texts';
import { SLUG_PATTERN } from '../../../../isomorphic/slug';
import { allows, type Post, type PostAction, type PostStatus, type Tag } from '../../lib/api/schema';

export type PostResponse = Post;
export type TagResponse = Tag;
export type { PostStatus };
type TagRef = components['schemas']['TagRefDto'];
type SavePayload = components['schemas']['PostSaveDto'];

export type EditorMode = 'author' | 'admin';

export interface EditorForm {
  title: string;
  slug: string;
  excerpt: string;
  /** Markdown. */
  content: string;
  /** Sent in admin mode only. */
  status: PostStatus;
  /** Sent in admin mode only. */
  isFeatured: boolean;
  tagIds: number[];
  /** The thumbnail URL, '' for none. */
  featuredImage: string;
  /** The SEO section: '' for none (the post's own title, excerpt, address, thumbnail). */
  metaTitle: string;
  metaDescription: string;
  canonicalUrl: string;
  noindex: boolean;
  socialImage: string;
}

export type EditorField = 'title' | 'slug' | 'excerpt' | 'content' | 'featuredImage' | 'tags' | 'status' | SeoField;
export type SeoField = 'metaTitle' | 'metaDescription' | 'canonicalUrl' | 'socialImage';

/**
 * Lengths the API accepts (docs/requirements.md#length-caps), in characters (code points). The slug and content inputs
 * stop there; title and excerpt do not, as maxLength counts UTF-16 units (an emoji is two): the
 * server's answer names a title or excerpt that is too long.
 */
export const LIMITS = {
  title: 200,
  slug: 200,
  excerpt: 1000,
  content: 200_000,
  metaTitle: 300,
  metaDescription: 500,
  canonicalUrl: 500,
  socialImage: 500,
} as const;
/** What search engines show before truncating (the SEO section's counters). */
export const RECOMMENDED = { metaTitle: 60, metaDescription: 145 } as const;
/** Tags per post the API accepts. */
export const MAX_TAGS = 20;

export function formFromPost(post: PostResponse | undefined): EditorForm {
  return {
    title: post?.title ?? '',
    slug: post?.slug ?? '',
    excerpt: post?.summary ?? '',
    content: post?.content ?? '',
    status: post?.status ?? 'DRAFT',
    isFeatured: post?.isFeatured ?? false,
    tagIds: post?.tags.map((tag) => tag.id) ?? [],
    featuredImage: post?.thumbnail ?? '',
    metaTitle: post?.seo.metaTitle ?? '',
    metaDescription: post?.seo.metaDescription ?? '',
    canonicalUrl: post?.seo.canonicalUrl ?? '',
    noindex: post?.seo.noindex ?? false,
    socialImage: post?.seo.socialImage ?? '',
  };
}

export function sameForm(a: EditorForm, b: EditorForm): boolean {
  return (
    a.title === b.title &&
    a.slug === b.slug &&
    a.excerpt === b.excerpt &&
    a.content === b.content &&
    a.status === b.status &&
    a.isFeatured === b.isFeatured &&
    a.featuredImage === b.featuredImage &&
    a.metaTitle === b.metaTitle &&
    a.metaDescription === b.metaDescription &&
    a.canonicalUrl === b.canonicalUrl &&
    a.noindex === b.noindex &&
    a.socialImage === b.socialImage &&
    a.tagIds.length === b.tagIds.length &&
    a.tagIds.every((id, index) => id === b.tagIds[index])
  );
}

export interface Problem {
  field: EditorField | 'auth';
  message: string;
}

/**
 * The save checks in the spec's order (docs/requirements.md#validation-login): sign-in, trimmed title, content, slug, slug format.
 * Admin mode uses the admin editor's texts; its slug may be left empty (the server derives one on
 * create and keeps the old one on update), a given slug must still be well formed.
 */
export function saveProblems(form: EditorForm, options: { mode: EditorMode; signedIn: boolean }): Problem[] {
  const admin = options.mode === 'admin';
  const problems: Problem[] = [];
  if (!options.signedIn) problems.push({ field: 'auth', message: EditorTexts.AUTH_REQUIRED });
  if (!form.title.trim()) problems.push({ field: 'title', message: admin ? EditorTexts.ADMIN_TITLE_REQUIRED : EditorTexts.TITLE_REQUIRED });
  if (!form.content.trim())
    problems.push({ field: 'content', message: admin ? EditorTexts.ADMIN_CONTENT_REQUIRED : EditorTexts.CONTENT_REQUIRED });
  const slug = form.slug.trim();
  if (!slug) {
    if (!admin) problems.push({ field: 'slug', message: EditorTexts.SLUG_REQUIRED });
  } else if (!SLUG_PATTERN.test(slug)) {
    problems.push({ field: 'slug', message: EditorTexts.SLUG_INVALID });
  }
  return problems;
}

/** A selected tag as the picker shows it: known from the tag list, or only from the post. */
export interface SelectedTag {
  id: number;
  name: string;
  slug: string;
  color: string | null;
  /** False for a tag the tag list marks inactive; tags missing from the list count as active (the server decides). */
  active: boolean;
}

/** The selected tags in selection order, with whether each is active. Ids nobody knows are dropped. */
export function selectedTags(tagIds: number[], available: TagResponse[], postTags: TagRef[] = []): SelectedTag[] {
  const byId = new Map<number, SelectedTag>();
  for (const tag of postTags) byId.set(tag.id, { id: tag.id, name: tag.name, slug: tag.slug, color: tag.color, active: true });
  for (const tag of available) byId.set(tag.id, { id: tag.id, name: tag.name, slug: tag.slug, color: tag.color, active: tag.isActive });
  return tagIds.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The body of a save: trimmed fields, an empty excerpt, image or SEO text as null, the slugs of the
 * active selected tags, and the version the edit is based on (a saved post's: the server answers
 * 409 when someone saved in between); admin mode adds status and isFeatured. An empty slug is
 * left out in admin mode.
 */
export function savePayload(form: EditorForm, mode: EditorMode, tags: SelectedTag[], version?: number): SavePayload {
  const payload: SavePayload = {
    title: form.title.trim(),
    summary: form.excerpt.trim() || null,
    content: form.content.trim(),
    thumbnail: form.featuredImage.trim() || null,
    tagSlugs: tags.filter((tag) => tag.active).map((tag) => tag.slug),
    metaTitle: form.metaTitle.trim() || null,
    metaDescription: form.metaDescription.trim() || null,
    canonicalUrl: form.canonicalUrl.trim() || null,
    noindex: form.noindex,
    socialImage: form.socialImage.trim() || null,
  };
  if (version !== undefined) payload.version = version;
  const slug = form.slug.trim();
  if (slug || mode === 'author') payload.slug = slug;
  if (mode === 'admin') {
    payload.status = form.status;
    payload.isFeatured = form.isFeatured;
  }
  return payload;
}

/** The form as the server keeps it after a save of `form` (trimmed), for telling later edits apart. */
export function trimmedForm(form: EditorForm): EditorForm {
  return {
    ...form,
    title: form.title.trim(),
    slug: form.slug.trim(),
    excerpt: form.excerpt.trim(),
    content: form.content.trim(),
    featuredImage: form.featuredImage.trim(),
    metaTitle: form.metaTitle.trim(),
    metaDescription: form.metaDescription.trim(),
    canonicalUrl: form.canonicalUrl.trim(),
    socialImage: form.socialImage.trim(),
  };
}

export const STATUS_LABELS: Record<PostStatus, string> = {
  DRAFT: 'Draft',
  PENDING_REVIEW: 'Pending review',
  PUBLISHED: 'Published',
  REJECTED: 'Rejected',
  ARCHIVED: 'Archived',
  PRIVATE: 'Private',
};

/** The editor offers these (docs/requirements.md#screen-author-drafts: draft, published, and archived in the admin screens). */
const EDITOR_STATUSES: PostStatus[] = ['DRAFT', 'PUBLISHED', 'ARCHIVED'];

/**
 * The status select's options: a new post offers draft, published and archived; a saved one its
 * current status (whatever it is) and the editor's statuses its answer allows (`setStatus:<S>`,
 * the post lifecycle's rule).
 */
export function statusOptions(saved: Pick<PostResponse, 'status' | 'allowedActions'> | undefined): PostStatus[] {
  if (!saved) return EDITOR_STATUSES;
  return [
    saved.status,
    ...EDITOR_STATUSES.filter((status) => status !== saved.status && allows(saved, `setStatus:${status}` as PostAction)),
  ];
}
