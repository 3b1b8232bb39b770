/**
 * The back-office tag screens (/admin/tags; docs/requirements.md#screen-admin-tags, docs/requirements.md#data-tag, docs/requirements.md#tag-states, docs/requirements.md#validation-tag, docs/requirements.md#api-tags, docs/requirements.md#constants-paging): the list's query
 * (search, active/inactive/all, sort, size, 1-based page in the address), its read, the tag
 * editor's checks and the posts of a tag. Used on the server and in the islands.
 */
import { listApiQuery, listHref, listQueryFrom, listQueryParams, type BaseListQuery, type SortDir } from '../../lib/admin-list';
import type { ApiClient } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';
import { load, settleRead, type Loaded } from '../../lib/settle';
import { SLUG_PATTERN, TAG_SLUG_MAX_LENGTH } from '../../../../isomorphic/slug';
import { AdminTagsTexts } from './texts';
import { charCount, trimInvisible } from '../../../../isomorphic/text';
import type { DataOf, PostCardData, Tag } from '../../lib/api/schema';

type Schemas = components['schemas'];
export type AdminTag = Tag;
export type TagApiPage = Schemas['TagPageDto'];
export type TagPostCard = PostCardData;
/** A page of a tag's published posts (GET /blog/posts/public/tag/{slug}). */
export type TagPostsPage = DataOf<'/api/v1/blog/posts/public/tag/{slug}'>;

// ---- the list's query -----------------------------------------------------------------------

export type TagFilter = 'active' | 'inactive' | 'all';
export type TagSortField = 'name' | 'createdAt' | 'updatedAt' | 'postCount';
export type { SortDir };

export const TAG_FILTERS: { value: TagFilter; label: string }[] = [
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Inactive' },
  { value: 'all', label: 'All' },
];
export const TAG_SORT_FIELDS: { value: TagSortField; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'createdAt', label: 'Created' },
  { value: 'updatedAt', label: 'Updated' },
  { value: 'postCount', label: 'Post count' },
];
export const TAG_PAGE_SIZES = [5, 10, 20, 50] as const;
/** docs/requirements.md#constants-paging: default page size 10; tag lists sort by name, descending, active only. */
export const TAG_DEFAULTS = { size: 10, sortBy: 'name' as TagSortField, sortDir: 'desc' as SortDir, filter: 'active' as TagFilter };
export const TAGS_PATH = '/admin/tags';

export interface TagListQuery extends BaseListQuery<TagSortField> {
  filter: TagFilter;
}

export const DEFAULT_TAG_QUERY: TagListQuery = { page: 0, ...TAG_DEFAULTS, search: '' };

export function tagQueryFrom(params: URLSearchParams): TagListQuery {
  const filter = params.get('filter') as TagFilter | null;
  return {
    ...listQueryFrom(params, { sizes: TAG_PAGE_SIZES, sortFields: TAG_SORT_FIELDS, defaults: TAG_DEFAULTS, searchMax: 100 }),
    filter: filter && TAG_FILTERS.some((item) => item.value === filter) ? filter : TAG_DEFAULTS.filter,
  };
}

export function tagQueryParams(query: TagListQuery): Record<string, string> {
  return listQueryParams(query, TAG_DEFAULTS, { filter: query.filter !== TAG_DEFAULTS.filter ? query.filter : undefined });
}

export function tagListHref(query: TagListQuery): string {
  return listHref(TAGS_PATH, tagQueryParams(query));
}

// ---- reads ---------------------------------------------------------------------------------

export interface TagListPage {
  tags: AdminTag[];
  totalElements: number;
  totalPages: number;
  /** 0-based. */
  page: number;
  size: number;
}

/** The API's tag status filter for the list's Show choice ('all': none, with activeOnly=false). */
const STATUS_OF_FILTER = { active: 'ACTIVE', inactive: 'INACTIVE', all: undefined } as const;

/**
 * GET /blog/tags ?page&size&sortBy&sortDir&search&status (ACTIVE or INACTIVE; 'all' sends
 * activeOnly=false instead): every filter is paged by the server.
 */
export async function fetchTagList(api: ApiClient, query: TagListQuery): Promise<TagListPage> {
  const status = STATUS_OF_FILTER[query.filter];
  const answer = await unwrap(
    api.GET('/api/v1/blog/tags', {
      params: { query: { ...listApiQuery(query), ...(status ? { status } : { activeOnly: false }) } },
    }),
  );
  return {
    tags: answer.content,
    totalElements: answer.totalElements,
    totalPages: answer.totalPages,
    page: answer.number,
    size: answer.size,
  };
}

export function loadTagList(api: ApiClient, query: TagListQuery): Promise<Loaded<TagListPage>> {
  return settleRead(() => fetchTagList(api, query));
}

/** GET /blog/tags/{id} (an admin sees inactive tags and counts posts of any status). */
export function loadTag(api: ApiClient, id: number): Promise<Loaded<AdminTag>> {
  return load(api.GET('/api/v1/blog/tags/{id}', { params: { path: { id } } }));
}

export const TAG_POSTS_SIZE = 12;

/** GET /blog/posts/public/tag/{slug} ?page&size=12&sort=publishedAt,desc: the tag's published posts. */
export function loadTagPosts(api: ApiClient, slug: string, page: number): Promise<Loaded<TagPostsPage>> {
  return load(
    api.GET('/api/v1/blog/posts/public/tag/{slug}', {
      params: { path: { slug }, query: { page, size: TAG_POSTS_SIZE, sort: 'publishedAt,desc' } },
    }),
  );
}

// ---- the tag editor's checks (docs/requirements.md#validation-tag) ---------------------------------------------------

export interface TagForm {
  name: string;
  slug: string;
  description: string;
  color: string;
  icon: string;
  isActive: boolean;
}

export type TagFormErrors = Partial<Record<keyof TagForm, string>>;

const HEX_COLOUR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export function tagFormFrom(tag: AdminTag | undefined): TagForm {
  return {
    name: tag?.name ?? '',
    slug: tag?.slug ?? '',
    description: tag?.description ?? '',
    color: tag?.color ?? '',
    icon: tag?.icon ?? '',
    isActive: tag?.isActive ?? true,
  };
}

/** The editor's checks, in the order the fields appear; each failing field gets its text. */
export function checkTagForm(form: TagForm): TagFormErrors {
  const errors: TagFormErrors = {};
  const name = trimInvisible(form.name);
  const slug = form.slug.trim();
  if (charCount(name) < 2 || charCount(name) > 100) errors.name = AdminTagsTexts.NAME_LENGTH;
  if (slug.length < 2 || slug.length > TAG_SLUG_MAX_LENGTH || !SLUG_PATTERN.test(slug)) errors.slug = AdminTagsTexts.SLUG_INVALID;
  if (charCount(trimInvisible(form.description)) > 500) errors.description = AdminTagsTexts.DESCRIPTION_TOO_LONG;
  if (form.color.trim() && !HEX_COLOUR.test(form.color.trim())) errors.color = AdminTagsTexts.COLOR_INVALID;
  if (charCount(trimInvisible(form.icon)) > 64) errors.icon = AdminTagsTexts.ICON_TOO_LONG;
  return errors;
}

/** The request body: trimmed, empty optional fields as null. */
export function tagPayload(form: TagForm) {
  return {
    name: form.name.trim(),
    slug: form.slug.trim(),
    description: form.description.trim() || null,
    color: form.color.trim() || null,
    icon: form.icon.trim() || null,
    isActive: form.isActive,
  };
}

/** A tag colour safe to put in a style attribute, else undefined. */
export function safeColour(colour: string | null | undefined): string | undefined {
  return colour && HEX_COLOUR.test(colour) ? colour : undefined;
}
