/**
 * The author's pages (docs/requirements.md#screen-author-posts author dashboard, My Posts, editor, drafts): who may open them,
 * their reads through the visitor's session (`Astro.locals.api`, each settled to Loaded), and
 * the rules they show (which statuses an author may edit or submit, draft completeness, last
 * modified wording).
 */
import type { ApiClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';
import { load, recordLoadFailureStatus, type Loaded } from '../../lib/settle';
import { AccessTexts, DraftsTexts } from './texts';
import { PostsTexts } from '../posts';
import { AUTHOR_PAGE, requireRole } from '../../lib/page-access';
import { recordIdParam } from '../../lib/route-id';
import { formatShortDate } from '../../lib/dates';
import { allows, type Post, type PostAction, type PostListItem, type PostReview, type PostStatus, type Tag } from '../../lib/api/schema';

type Schemas = components['schemas'];
export type { PostStatus };
/** A row of the author's list (no body). */
export type MyPost = PostListItem;
/** A whole post (GET /blog/posts/{id}): the editor and the preview. */
export type AuthorPost = Post;
export type AuthorTag = Tag;
export type AuthorStats = Schemas['AuthorDashboardStatsDto'];
export type AuthorActivity = AuthorStats['recentActivities'][number];
/** One review of a post (GET /blog/post-reviews/{id}/history). */
export type { PostReview };
/** The latest rejection of a REJECTED post, on its list row. */
export type PostRejection = Schemas['PostRejectionDto'];

/** docs/requirements.md#constants-paging: author posts page 10. */
export const MY_POSTS_PAGE_SIZE = 10;
/** The editor's tag list (docs/requirements.md#constants-paging: editor 100). */
export const EDITOR_TAGS_SIZE = 100;
/** The API's largest page of the author's own list (the spec's status-count size). */
const MY_POSTS_MAX_SIZE = 1000;

// ---- statuses ---------------------------------------------------------------------------------

/** Whether the author may still edit (and delete and submit) the post: its answer's `allowedActions` say so. */
export function authorCanEdit(post: { allowedActions?: PostAction[] }): boolean {
  return allows(post, 'edit');
}

export interface StatusFilter {
  /** The `?status=` value (the spec's lowercase status names; 'all' is the default, no parameter). */
  value: string;
  label: string;
  status?: PostStatus;
}

/** My Posts' filter buttons (docs/requirements.md#screen-author-posts, plus Pending Review and Rejected, which an author's posts can be). */
export const STATUS_FILTERS: readonly StatusFilter[] = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Drafts', status: 'DRAFT' },
  { value: 'pending_review', label: 'Pending Review', status: 'PENDING_REVIEW' },
  { value: 'published', label: 'Published', status: 'PUBLISHED' },
  { value: 'rejected', label: 'Rejected', status: 'REJECTED' },
  { value: 'private', label: 'Private', status: 'PRIVATE' },
  { value: 'archived', label: 'Archived', status: 'ARCHIVED' },
];

/** The filter of `?status=` (case-insensitive); anything else is All. */
export function statusFilterFromQuery(url: URL): StatusFilter {
  const raw = url.searchParams.get('status')?.toLowerCase();
  return STATUS_FILTERS.find((filter) => filter.value === raw) ?? STATUS_FILTERS[0];
}

// ---- reads ------------------------------------------------------------------------------------

export const authorApi = (api: ApiClient) => ({
  stats: () => load(api.GET('/api/v1/dashboard/author/stats', {})),
  myPosts: (page: number, size: number, status?: PostStatus) =>
    load(api.GET('/api/v1/blog/posts/author/my-posts', { params: { query: { page, size, status } } })),
  /** How many of the author's posts each status holds, in one read. */
  myPostCounts: () => load(api.GET('/api/v1/blog/posts/author/my-posts/counts', {})),
  post: (id: number) => load(api.GET('/api/v1/blog/posts/{id}', { params: { path: { id } } })),
  /** Active tags by name, for the editor's picker. */
  activeTags: () =>
    load(
      api.GET('/api/v1/blog/tags', {
        params: { query: { page: 0, size: EDITOR_TAGS_SIZE, sortBy: 'name', sortDir: 'asc', activeOnly: true } },
      }),
    ),
  tag: (id: number) => load(api.GET('/api/v1/blog/tags/{id}', { params: { path: { id } } })),
  /** The post's reviews, newest first (its author and admins; the admins' internal notes are left out for authors). */
  reviews: (id: number) => load(api.GET('/api/v1/blog/post-reviews/{id}/history', { params: { path: { id } } })),
});

/**
 * The editor's tags: the active ones it offers (100, docs/requirements.md#constants-paging), plus the post's own tags that
 * are not among them, read one by one, so that an inactive tag on the post is marked and left out
 * of the save with the editor's warning (docs/requirements.md#validation-post) instead of being taken for an active one.
 */
export async function loadEditorTags(api: ApiClient, post?: AuthorPost): Promise<Loaded<AuthorTag[]>> {
  const author = authorApi(api);
  const active = await author.activeTags();
  if (!active.ok) return active;
  const listed = new Set(active.data.content.map((tag) => tag.id));
  const others = await Promise.all((post?.tags ?? []).filter((tag) => !listed.has(tag.id)).map((tag) => author.tag(tag.id)));
  return { ok: true, data: [...active.data.content, ...others.flatMap((tag) => (tag.ok ? [tag.data] : []))] };
}

/** Number of the author's posts per status and in all (All: the statuses My Posts filters by). */
export type StatusCounts = Record<PostStatus | 'ALL', number>;

/** The counts in one read (GET /blog/posts/author/my-posts/counts: one GROUP BY), exact at any number of posts. */
export async function loadStatusCounts(api: ApiClient): Promise<Loaded<StatusCounts>> {
  const read = await authorApi(api).myPostCounts();
  if (!read.ok) return read;
  const counts = { ALL: 0 } as StatusCounts;
  for (const filter of STATUS_FILTERS) {
    if (!filter.status) continue;
    counts[filter.status] = read.data[filter.status];
    counts.ALL += read.data[filter.status];
  }
  return { ok: true, data: counts };
}

/** My Posts: the page of the chosen filter and the counts, read in parallel. */
export async function loadMyPosts(api: ApiClient, filter: StatusFilter, page: number) {
  const [list, counts] = await Promise.all([authorApi(api).myPosts(page, MY_POSTS_PAGE_SIZE, filter.status), loadStatusCounts(api)]);
  return { list, counts };
}

// ---- drafts -----------------------------------------------------------------------------------

/** docs/requirements.md#reading-time: a draft is ready from 80 % completeness; its word check needs more than 100 words. */
export const READY_THRESHOLD = 80;
export const DRAFT_WORD_THRESHOLD = 100;

export interface DraftInsight {
  post: MyPost;
  /** The server's count of the content's words (runs of non-space characters, counted on save). */
  words: number;
  checks: { label: string; passed: boolean }[];
  /** Share of the three checks passed, a whole percentage. */
  completeness: number;
  ready: boolean;
}

/** Completeness of a draft (docs/requirements.md#screen-author-drafts): has a title, more than 100 words, has an excerpt. */
export function draftInsight(post: MyPost): DraftInsight {
  const words = post.wordCount;
  const checks = [
    { label: DraftsTexts.CHECK_TITLE, passed: post.title.trim() !== '' },
    { label: DraftsTexts.CHECK_WORDS, passed: words > DRAFT_WORD_THRESHOLD },
    { label: DraftsTexts.CHECK_EXCERPT, passed: (post.summary ?? '').trim() !== '' },
  ];
  const completeness = Math.round((checks.filter((check) => check.passed).length / checks.length) * 100);
  return { post, words, checks, completeness, ready: completeness >= READY_THRESHOLD };
}

const HOUR_MS = 3_600_000;

/** 'N hours ago' under 24 h, 'N days ago' under 168 h, else the date (docs/requirements.md#screen-author-drafts drafts). */
export function lastModified(value: string, now = Date.now()): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  const hours = Math.max(0, (now - date.getTime()) / HOUR_MS);
  if (hours < 1) return DraftsTexts.LESS_THAN_HOUR;
  if (hours < 24) return DraftsTexts.hoursAgo(Math.floor(hours));
  if (hours < 168) return DraftsTexts.daysAgo(Math.floor(hours / 24));
  return formatShortDate(date);
}

/**
 * Every DRAFT of the author, last modified first: GET /blog/posts/author/my-posts?status=DRAFT
 * in pages of 1000 (the endpoint's largest), whose rows carry the word count; no body is read.
 */
export async function loadDrafts(api: ApiClient): Promise<Loaded<DraftInsight[]>> {
  const author = authorApi(api);
  const rows = new Map<number, MyPost>();
  for (let page = 0; ; page++) {
    const list = await author.myPosts(page, MY_POSTS_MAX_SIZE, 'DRAFT');
    if (!list.ok) return list;
    // A draft created between two pages shifts the rest by one: the row read twice counts once.
    for (const row of list.data.content) rows.set(row.id, row);
    if (list.data.last || list.data.content.length === 0) break;
  }
  const drafts = [...rows.values()].map(draftInsight);
  drafts.sort((a, b) => Date.parse(b.post.updatedAt) - Date.parse(a.post.updatedAt) || b.post.id - a.post.id);
  return { ok: true, data: drafts };
}

/** The HTTP status of an author page about one post that could not be loaded (see PostLoadProblem). */
export function postProblemStatus(error: ApiError | undefined): number {
  if (!error) return 404;
  return error.status === 403 ? 403 : recordLoadFailureStatus(error);
}

/**
 * The prologue of the author's pages about one post (edit, preview): the AUTHOR guard, then the
 * post of the address's id; without it, the status `postProblemStatus` gives and the title to
 * show ('Access Denied' for someone else's post, else 'Post Not Found'). Or the redirect to return.
 */
export async function authorPostPage(
  Astro: Parameters<typeof requireRole>[0] & { params: { id?: string }; locals: { api: ApiClient }; response: { status?: number } },
) {
  const access = requireRole(Astro, AUTHOR_PAGE);
  if (access instanceof Response) return access;
  const id = recordIdParam(Astro.params.id);
  const post = id ? await authorApi(Astro.locals.api).post(id) : undefined;
  const data = post?.ok ? post.data : undefined;
  const error = post && !post.ok ? post.error : undefined;
  if (!data) Astro.response.status = postProblemStatus(error);
  const problemTitle = error?.status === 403 ? AccessTexts.ACCESS_DENIED : PostsTexts.POST_NOT_FOUND;
  return { user: access.user, data, error, problemTitle };
}
