/**
 * Texts of the back-office tag screens (/admin/tags; docs/requirements.md#tag-editor, docs/requirements.md#validation-tag, docs/requirements.md#errors-tags): the tag editor's
 * checks, the list's and the tag posts view's failures, notices and confirmations. Verbatim
 * where the spec gives them.
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';

export const AdminTagsTexts = {
  TITLE: 'Tag Management',
  SUBTITLE: 'Create, edit, activate and retire the tags posts are filed under.',
  NEW_TITLE: 'Create Tag',
  EDIT_TITLE: 'Edit Tag',
  POSTS_TITLE: 'Posts tagged with',

  // tag editor (docs/requirements.md#validation-tag)
  NAME_LENGTH: 'Tag name must be between 2-100 characters',
  SLUG_INVALID: 'Tag slug must be 2-100 characters: only lowercase letters, numbers, and hyphens.',
  DESCRIPTION_TOO_LONG: 'Tag description must be at most 500 characters',
  COLOR_INVALID: 'Tag color must be a hex colour such as #3178c6',
  ICON_TOO_LONG: 'Tag icon must be at most 64 characters',
  AUTH_REQUIRED: 'Authentication required. Please log in to create/update tags.',
  SLUG_HINT_CREATE: 'Lowercase letters, numbers and hyphens; it follows the name until you change it.',
  SLUG_HINT_EDIT:
    'Lowercase letters, numbers and hyphens. Renaming keeps it; a new slug moves the tag’s page, and the old address redirects there.',
  AUTHENTICATED: 'Authenticated',
  NOT_AUTHENTICATED: 'Not authenticated',
  SAVE_FAILED: 'Failed to save tag. Please try again.',
  CREATE_FAILED: 'Failed to create tag',
  UPDATE_FAILED: 'Failed to update tag',
  EDITOR_LOAD_FAILED: 'Failed to load tags',

  // list (docs/requirements.md#texts)
  LIST_FAILED: 'Unable to load tags list',
  ACTIVATE_FAILED: 'Failed to activate tag',
  DEACTIVATE_FAILED: 'Failed to deactivate tag',
  STATUS_FAILED: 'Failed to update tag status. Please try again.',
  DELETE_FAILED: 'Failed to delete tag',
  DELETE_FAILED_RETRY: 'Failed to delete tag. Please try again.',
  CREATED_NOTICE: 'Tag created successfully.',
  UPDATED_NOTICE: 'Tag updated successfully.',
  ACTIVATED: 'Tag activated',
  DEACTIVATED: 'Tag deactivated',
  DELETED: 'Tag deleted',
  activated: (name: string) => `“${name}” can be attached to posts again and shows on public pages.`,
  deactivated: (name: string) => `“${name}” is hidden from public pages and cannot be attached to posts.`,
  deleted: (name: string) => `“${name}” was deleted.`,
  DELETE_TITLE: 'Delete tag?',
  deleteConfirm: (name: string) => `“${name}” will be deleted and removed from every post that carries it. This cannot be undone.`,
  IN_USE_TITLE: 'Tag is in use',
  /** The server's 409 text (TagsMessages.inUse), when the card already knows the tag is used. */
  inUse: (count: number) => `Tag is used by ${countNoun(count, Nouns.POST)}. Deactivate it instead.`,
  IN_USE_HINT: 'Deactivating keeps it on its posts but hides it from public pages and the editor.',
  EMPTY: 'No tags yet',
  EMPTY_MESSAGE: 'Create the first tag to file posts under it.',
  NO_MATCH: 'No tags match your filters',
  NO_MATCH_MESSAGE: 'Try another search or show all tags.',
  LOADING: 'Loading tags...',

  // posts by tag (docs/requirements.md#screen-tag-posts, docs/requirements.md#errors-tags)
  TAG_POSTS_FAILED: 'Failed to load posts by tag',
  TAG_POSTS_EMPTY: 'No posts found for tag',
  TAG_INACTIVE: 'This tag is inactive, so none of its posts are listed publicly. Activate it to list its published posts here.',
} as const;
