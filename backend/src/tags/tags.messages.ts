/** Texts of the tags area (docs/requirements.md#validation-tag, docs/requirements.md#errors-tags), verbatim where the spec gives them. */
import { countNoun, englishNoun } from '../../../isomorphic/plural';

export const TagsMessages = {
  AUTH_REQUIRED: 'Authentication required. Please log in to create/update tags.',
  NAME_LENGTH: 'Tag name must be between 2-100 characters',
  SLUG_INVALID: 'Tag slug must be 2-100 characters: only lowercase letters, numbers, and hyphens.',
  DESCRIPTION_TOO_LONG: 'Tag description must be at most 500 characters',
  COLOR_INVALID: 'Tag color must be a hex colour such as #3178c6',
  ICON_TOO_LONG: 'Tag icon must be at most 64 characters',
  STATUS_INVALID: 'status must be ACTIVE or INACTIVE',
  notFound: (id: number) => `Tag with id ${id} not found`,
  /** docs/requirements.md#texts. */
  slugNotFound: (slug: string) => `Tag "${slug}" not found`,
  nameTaken: (name: string) => `A tag named "${name}" already exists.`,
  slugTaken: (slug: string) => `A tag with slug "${slug}" already exists.`,
  inUse: (count: number) => `Tag is used by ${countNoun(count, englishNoun('post'))}. Deactivate it instead.`,
  CREATED: 'Tag created.',
  UPDATED: 'Tag updated.',
  ACTIVATED: 'Tag activated.',
  DEACTIVATED: 'Tag deactivated.',
} as const;
