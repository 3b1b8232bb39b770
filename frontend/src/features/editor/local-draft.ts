/**
 * The editor's local copy of unsaved changes (localStorage, one key per signed-in user and editor:
 * a new post or a saved one, so two accounts sharing a browser never see each other's text). Written a moment after each change, removed after a successful save; offered back
 * on load when it is newer than the post's last save and differs from it.
 */
import { sameForm, type EditorForm, type PostResponse, type PostStatus } from './editor-form';

export interface LocalDraft {
  /** When it was written (ms). */
  savedAt: number;
  /** The post it belongs to, once saved. */
  postId?: number;
  form: EditorForm;
}

/** The key of user `userId`'s local draft of saved post `id` (the editor moves a new post's draft there after its first save). */
export const postDraftKey = (userId: number, id: number): string => `inkwell:draft:${userId}:post:${id}`;
/** The key of user `userId`'s local draft of a new post. */
export const newDraftKey = (userId: number): string => `inkwell:draft:${userId}:new`;

/** How long after the last keystroke the local copy is written (ms). */
export const DRAFT_DELAY_MS = 500;

const STATUSES: PostStatus[] = ['DRAFT', 'PENDING_REVIEW', 'PUBLISHED', 'REJECTED', 'ARCHIVED', 'PRIVATE'];

function storage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

const text = (value: unknown): value is string => typeof value === 'string';

/** A stored draft, checked field by field; anything malformed reads as no draft. */
export function parseDraft(raw: string | null | undefined): LocalDraft | undefined {
  if (!raw) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const draft = value as Partial<LocalDraft> | null;
  const form = draft?.form as Partial<EditorForm> | undefined;
  if (!draft || typeof draft.savedAt !== 'number' || !Number.isFinite(draft.savedAt) || !form) return undefined;
  if (![form.title, form.slug, form.excerpt, form.content, form.featuredImage].every(text)) return undefined;
  if (!Array.isArray(form.tagIds) || !form.tagIds.every((id) => Number.isInteger(id) && id > 0)) return undefined;
  return {
    savedAt: draft.savedAt,
    postId: Number.isInteger(draft.postId) ? draft.postId : undefined,
    form: {
      title: form.title as string,
      slug: form.slug as string,
      excerpt: form.excerpt as string,
      content: form.content as string,
      featuredImage: form.featuredImage as string,
      tagIds: form.tagIds,
      status: STATUSES.includes(form.status as PostStatus) ? (form.status as PostStatus) : 'DRAFT',
      isFeatured: form.isFeatured === true,
      // Copies written before the SEO section have none of its fields.
      metaTitle: text(form.metaTitle) ? form.metaTitle : '',
      metaDescription: text(form.metaDescription) ? form.metaDescription : '',
      canonicalUrl: text(form.canonicalUrl) ? form.canonicalUrl : '',
      noindex: form.noindex === true,
      socialImage: text(form.socialImage) ? form.socialImage : '',
    },
  };
}

export function readDraft(key: string): LocalDraft | undefined {
  try {
    return parseDraft(storage()?.getItem(key));
  } catch {
    return undefined;
  }
}

/** Writes the draft; false when the browser refuses (storage full or disabled). */
export function writeDraft(key: string, draft: LocalDraft): boolean {
  try {
    const store = storage();
    store?.setItem(key, JSON.stringify(draft));
    return !!store;
  } catch {
    return false;
  }
}

export function clearDraft(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // nothing stored, nothing to clear
  }
}

/**
 * Whether to offer the draft back: it belongs to this post (or to no post, for a new one), it is
 * newer than the post's last save, and it differs from what the editor shows.
 */
export function draftToOffer(draft: LocalDraft | undefined, post: PostResponse | undefined, shown: EditorForm): LocalDraft | undefined {
  if (!draft) return undefined;
  if (post ? draft.postId !== undefined && draft.postId !== post.id : draft.postId !== undefined) return undefined;
  const updated = post ? Date.parse(post.updatedAt) : Number.NaN;
  if (Number.isFinite(updated) && draft.savedAt <= updated) return undefined;
  return sameForm(draft.form, shown) ? undefined : draft;
}
