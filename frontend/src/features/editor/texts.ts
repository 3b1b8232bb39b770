/**
 * Texts of the post editor and its previews (docs/requirements.md#post-editor, 'Post preview', docs/requirements.md#validation-review 'Post
 * save' and 'Thumbnail', docs/requirements.md#errors-posts 'Post' and 'Upload'), verbatim where the spec gives them. The spec
 * names some messages without their words (inactive tags, a dimension mismatch, a failed storage
 * delete, the restore offer); those follow the spec's own ('Continue anyway?', 'Upload Failed').
 */
import { ApiError } from '../../lib/api/errors';
import { CommonTexts } from '../../lib/texts/common';
import { countNoun, Nouns } from '../../lib/texts/nouns';
import type { ErrorTexts } from '../../lib/texts/error-text';
import type { EditorField } from './editor-form';

export const EditorTexts = {
  /** docs/requirements.md#validation-post save checks, author screens, in the spec's order. */
  AUTH_REQUIRED: 'Authentication required: Please log in to create/update posts.',
  TITLE_REQUIRED: 'Title is required',
  CONTENT_REQUIRED: 'Content is required',
  SLUG_REQUIRED: 'Slug is required',
  SLUG_INVALID: 'Invalid slug format: Slug must contain only lowercase letters, numbers, and hyphens.',
  /** The admin editor's messages (docs/requirements.md#validation-post). */
  ADMIN_TITLE_REQUIRED: 'Please enter a title',
  ADMIN_CONTENT_REQUIRED: 'Please enter content',
  PREVIEW_REQUIRES: 'Preview requires title and content',

  /** Notices after a save (the server's message is shown when it sends one). */
  SAVED_AS_DRAFT: 'Post saved as a draft. Submit it for review to publish it.',
  CREATED: 'Post created.',
  UPDATED: 'Post updated.',
  SUBMITTED: 'Post submitted for review.',
  SUBMIT_FAILED: 'Failed to submit the post for review. Please try again.',

  /** docs/requirements.md#errors-posts Post. */
  VALIDATION_ERROR: 'Validation Error',
  SAVE_FAILED_TITLE: 'Save Failed',
  SAVE_FAILED: 'Failed to save post. Please try again.',
  saveFailed: (message: string) => `Failed to save post: ${message}`,
  INVALID_POST_DATA: 'Invalid post data. Please check your input and try again.',
  SERVER_ERROR: 'Server error occurred. Please try again later.',
  FORBIDDEN_CREATE: 'You do not have permission to create posts.',
  FORBIDDEN_UPDATE: 'You do not have permission to update this post.',

  /** Tags (docs/requirements.md#validation-tag: only active selected tags are sent; inactive ones are warned about). */
  inactiveTags: (names: string[]) => `Inactive tags are not saved with the post: ${names.join(', ')}`,
  tagLimit: (max: number) => `A post can have at most ${countNoun(max, Nouns.TAG)}.`,
  NO_TAGS_SELECTED: 'No tags selected',
  NO_TAGS_AVAILABLE: 'No more tags to add',

  /** The local copy of unsaved changes. */
  RESTORE_TITLE: 'Restore unsaved changes?',
  restoreMessage: (when: string) => `Changes made on ${when} were not saved.`,
  RESTORED: 'Unsaved changes restored.',
  UNSAVED_CHANGES: 'You have unsaved changes.',

  /** Preview (docs/requirements.md#post-preview). */
  NOT_PUBLISHED: 'Not published',
  PREVIEW_MODE: 'Preview Mode',
  PREVIEW_LOADING: 'Rendering preview...',
  PREVIEW_FAILED: 'Unable to render the preview.',
  PREVIEW_EMPTY: 'Nothing to preview yet.',

  /** Thumbnail (docs/requirements.md#validation-thumbnail, docs/requirements.md#errors-upload Upload). */
  INVALID_FILE: 'Invalid File',
  IMAGE_VALIDATION_FAILED: 'Image validation failed',
  INVALID_DIMENSIONS: 'Invalid image dimensions',
  UPLOAD_FAILED: 'Upload Failed',
  CONTINUE_ANYWAY: 'Continue anyway?',
  /** docs/requirements.md#validation-image-upload, verbatim; the server's type refusal says the same. */
  FILE_TYPE: 'Please select a valid image file (JPG, PNG, WEBP, GIF)',
  FILE_EMPTY: 'Selected file is empty. Please choose a valid image file',
  fileTooLarge: (bytes: number) => `File size (${(bytes / 1024 / 1024).toFixed(2)} MB) exceeds the maximum limit of 10MB`,
  FILE_UNREADABLE: 'The file could not be read as an image.',
  dimensionsTooLarge: (width: number, height: number, maxWidth: number, maxHeight: number) =>
    `The image is ${width}x${height} pixels; at most ${maxWidth}x${maxHeight} is allowed.`,
  dimensionMismatch: (width: number, height: number, recommendedWidth: number, recommendedHeight: number) =>
    `The image is ${width}x${height} pixels; the recommended size is ${recommendedWidth}x${recommendedHeight}.`,
  UPLOAD_TIMEOUT: 'The upload took longer than 60 seconds. Please try again.',
  CHECKING_IMAGE: 'Checking image...',
  REMOVE_TITLE: 'Remove featured image?',
  REMOVE_MESSAGE: 'The image is removed from this post.',
  REMOVED_MAY_REMAIN: 'The thumbnail was removed locally but may remain in storage.',
  /** A save uploads a chosen image first; when it cannot, the save stops and says so. */
  IMAGE_NOT_UPLOADED: 'Image not uploaded',
  IMAGE_UPLOAD_CANCELLED: 'The image upload was cancelled.',
  IMAGE_SIZE_DECLINED: 'The chosen image was not uploaded at its current size.',
  NOT_SAVED_FOR_IMAGE: 'The post was not saved. Upload the chosen image again, or cancel it to save the post without it.',
} as const;

/** A save failure as the form shows it: messages on fields, and the alert's title and text. */
export interface SaveFailure {
  fields: Partial<Record<EditorField, string>>;
  title: string;
  text: string;
}

/** The API's field names → the form's. */
const FIELD_OF: Record<string, keyof SaveFailure['fields']> = {
  title: 'title',
  slug: 'slug',
  summary: 'excerpt',
  content: 'content',
  thumbnail: 'featuredImage',
  tagSlugs: 'tags',
  status: 'status',
  metaTitle: 'metaTitle',
  metaDescription: 'metaDescription',
  canonicalUrl: 'canonicalUrl',
  socialImage: 'socialImage',
};

/**
 * What a failed save shows (docs/requirements.md#errors-posts): a used slug (409) on the slug field; 400 field errors on
 * their fields; 401 the sign-in text; 403 the permission text; network and 5xx the spec's generic
 * texts; anything else 'Failed to save post: {server message}'.
 */
export function saveFailure(error: unknown, creating: boolean): SaveFailure {
  const title = EditorTexts.SAVE_FAILED_TITLE;
  if (!(error instanceof ApiError)) return { fields: {}, title, text: EditorTexts.SAVE_FAILED };
  if (error.status === 0) return { fields: {}, title, text: CommonTexts.NETWORK_ERROR };
  if (error.status >= 500) return { fields: {}, title, text: EditorTexts.SERVER_ERROR };
  if (error.status === 401) return { fields: {}, title, text: EditorTexts.AUTH_REQUIRED };
  if (error.status === 403)
    return { fields: {}, title, text: error.message || (creating ? EditorTexts.FORBIDDEN_CREATE : EditorTexts.FORBIDDEN_UPDATE) };
  const usedSlug = error.status === 409 ? error.field('slug') : undefined;
  if (usedSlug) return { fields: { slug: usedSlug }, title, text: error.message };
  if (error.status === 400) {
    const fields: SaveFailure['fields'] = {};
    for (const [name, messages] of Object.entries(error.errors ?? {})) {
      const field = FIELD_OF[name];
      if (field && messages?.[0] && !fields[field]) fields[field] = messages[0];
    }
    const first = Object.values(fields)[0];
    return first
      ? { fields, title: EditorTexts.VALIDATION_ERROR, text: first }
      : { fields, title, text: error.message || EditorTexts.INVALID_POST_DATA };
  }
  return { fields: {}, title, text: error.message ? EditorTexts.saveFailed(error.message) : EditorTexts.SAVE_FAILED };
}

/**
 * What a failed preview, submit, image check, upload or delete shows: the field's or the server's
 * text, the network text (or the upload's time limit), a 5xx the server-error text, else the
 * action's own text.
 */
export const editorErrors = (actionFailed: string): ErrorTexts => ({
  fallback: actionFailed,
  server: EditorTexts.SERVER_ERROR,
  fieldErrors: true,
});

/** Autosave, edits in two places, the History panel and the SEO section. */
export const PublishingTexts = {
  SAVING: 'Saving…',
  savedAt: (time: string) => `Saved · ${time}`,
  RETRYING: 'Not saved, retrying',
  /** Autosave stopped on a field error or a refusal: the manual save shows why. */
  NOT_SAVED: 'Not saved',
  /** Autosave waits while a chosen image needs the writer (its size asks first, or it was refused). */
  IMAGE_WAITING: 'Not saved: upload or cancel the chosen image',
  uploadingImage: (percent: number) => `Uploading image… ${percent}%`,
  CONFLICT_TITLE: 'This post was changed elsewhere',
  CONFLICT_TEXT: 'Someone saved this post in another tab or place after you opened it. Choose which text to keep.',
  KEEP_THEIRS: 'Keep theirs',
  KEEP_MINE: 'Keep mine',
  COMPARE: 'Compare',
  CONFLICT_LOAD_FAILED: 'The saved post could not be loaded. Please try again.',
  THEIRS_LOADED: 'The saved version was loaded; your changes were discarded.',
  HISTORY: 'History',
  HISTORY_EMPTY: 'No revisions yet.',
  HISTORY_FAILED: 'The history could not be loaded.',
  REVISION_FAILED: 'The revision could not be loaded.',
  COMPARE_FAILED: 'The comparison could not be loaded.',
  RESTORE_TITLE: 'Restore this revision?',
  restoreText: (when: string, unsaved: boolean) =>
    `The post's title, excerpt, content, tags, image and SEO fields go back to the revision of ${when}. The restore is kept as a new revision.${unsaved ? ' Your unsaved changes here are replaced.' : ''}`,
  RESTORED: 'Revision restored.',
  RESTORE_FAILED: 'The revision could not be restored.',
  KIND_LABELS: { SAVE: 'Saved', SUBMITTED: 'Submitted', APPROVED: 'Approved', REJECTED: 'Rejected', RESTORED: 'Restored' } as Record<
    string,
    string
  >,
  SEO: 'SEO',
  SEO_DEFAULT_TITLE: 'Empty: the post title.',
  SEO_DEFAULT_DESCRIPTION: 'Empty: the excerpt.',
  SEO_DEFAULT_CANONICAL: "Empty: the post's own address. Set it when the post first appeared elsewhere.",
  SEO_DEFAULT_IMAGE: 'Empty: the featured image.',
  counter: (length: number, recommended: number) => `${length} / ${recommended} recommended`,
  overRecommended: (recommended: number) => `Longer than ${recommended} characters: search engines cut the rest.`,
  CANONICAL_INVALID: 'Enter an absolute http(s) address.',
  REQUESTED_TIME: 'Requested publish time',
  REQUESTED_TIME_HINT: 'Optional. The reviewer sees it and may keep or change it.',
  REQUESTED_TIME_FUTURE: 'Choose a time in the future.',
} as const;
