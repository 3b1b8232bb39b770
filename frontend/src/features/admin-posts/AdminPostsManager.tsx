/**
 * /admin/posts, the list mode (docs/requirements.md#screen-admin-posts, docs/requirements.md#states, docs/requirements.md#validation-post, docs/requirements.md#errors-posts, docs/requirements.md#constants). Rendered on the server from the
 * address (search, status, sort field and direction, page size, page) so it reads without
 * JavaScript: the filters are a GET form, the chips, column headers and pager are links. Once
 * hydrated the island keeps the address in step without page loads (search after 300 ms of
 * quiet) and runs the row actions: Approve, Reject (a reason), Detailed Review (decision, reason,
 * internal notes, history), Approve Now, Publish, Archive and Delete (confirmed), each with the
 * spec's toasts. Scheduling: Schedule (approve for a time; Approve asks for the time too when the
 * author requested one), the 'Scheduled for …' badge, and Reschedule / Cancel schedule on a
 * scheduled post, each toasting the API's message.
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';
import { useId, useState, type ChangeEvent } from 'react';
import {
  PAGE_SIZES,
  SORT_FIELDS,
  STATUS_FILTERS,
  DEFAULT_QUERY,
  LIST_PATH,
  activeChips,
  adminDate,
  postActions,
  postListHref,
  postQueryFrom,
  postQueryParams,
  sortedBy,
  statusLabel,
  statusTone,
  type PostRowAction,
  type PostAdminPage,
  type PostDetail,
  type PostListItem,
  type PostListQuery,
  type PostSortField,
  type SortDir,
  type StatusFilter,
} from './admin-posts';
import { ApiError } from '../../lib/api/errors';
import { adminErrors, AdminPostsTexts } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { ConfirmDialog } from '../../components/islands/Dialog';
import { NoticeStack } from '../../components/islands/notices';
import {
  ACTIONS_CELL,
  ADMIN_CELL,
  AdminList,
  AdminSearchForm,
  AdminTable,
  ClearAll,
  keepOrReload,
  NewItemLink,
  pagerKeep,
  RowActions,
  SavedNotice,
  type AdminColumn,
  type RowAction,
  type RowActionTone,
  useRowAction,
} from '../../components/islands/AdminList';
import ListSelect, { SORT_DIRECTIONS, sizeOptions } from '../../components/islands/ListSelect';
import { useUrlList } from '../../components/islands/useUrlList';
import { cancelSchedule, changeStatus, deletePost, listPosts, reschedulePost, reviewPost, type ReviewDecision } from './post-api';
import { PublishTimeDialog } from './ScheduleDialogs';
import ScheduledBadge from '../../components/ScheduledBadge';
import { DetailedReviewDialog, QuickRejectDialog } from './ReviewDialogs';
import { FILTER_CONTROL_CLASS } from '../../lib/form-classes';
import { formatViDateTime } from '../../lib/dates';
import { AdminEmail } from '../../components/islands/AdminEmail';

export interface AdminPostsManagerProps {
  initialQuery: PostListQuery;
  /** The server's read of that query, or the message of its failure. */
  initialPage: PostAdminPage | null;
  initialError?: string;
  /** After the editor saved: 'created' or 'updated'. */
  notice?: 'created' | 'updated';
}

type Dialog = { kind: 'reject' | 'review' | 'delete' | 'approveAt' | 'reschedule' | 'cancelSchedule'; post: PostListItem } | undefined;

const ACTION_LABELS: Record<PostRowAction, { label: string; tone: RowActionTone }> = {
  approve: { label: 'Approve', tone: 'good' },
  schedule: { label: 'Schedule', tone: 'good' },
  reschedule: { label: 'Reschedule', tone: 'plain' },
  cancelSchedule: { label: 'Cancel schedule', tone: 'bad' },
  reject: { label: 'Reject', tone: 'bad' },
  review: { label: 'Detailed Review', tone: 'plain' },
  approveNow: { label: 'Approve Now', tone: 'good' },
  publish: { label: 'Publish', tone: 'good' },
  archive: { label: 'Archive', tone: 'plain' },
};
/** The actions that run at once (the others open a dialog first): a spinner while they run. */
const IMMEDIATE: ReadonlySet<PostRowAction> = new Set(['approve', 'approveNow', 'publish', 'archive']);

/** The table's columns; sortable ones link to the list sorted by them. */
const POST_COLUMNS: readonly AdminColumn<PostSortField>[] = [
  { label: 'Title', sort: 'title' },
  { label: 'Author' },
  { label: 'Status' },
  { label: 'Views', sort: 'viewCount' },
  { label: 'Created', sort: 'createdAt' },
  { label: 'Updated', sort: 'updatedAt' },
  { label: 'Published', sort: 'publishedAt' },
  { label: 'Actions', actions: true },
];

export default function AdminPostsManager({ initialQuery, initialPage, initialError, notice }: AdminPostsManagerProps) {
  const {
    hydrated,
    query,
    data,
    setData,
    error,
    loading,
    searchText,
    setSearchText,
    banner,
    dismissBanner,
    notices,
    notify,
    dismiss,
    focusAfter,
    load,
    navigate,
    submitSearch,
  } = useUrlList<PostListQuery, PostAdminPage>({
    initialQuery,
    initialPage,
    initialError,
    notice,
    hrefOf: postListHref,
    fetchPage: listPosts,
    queryFromLocation: () => postQueryFrom(new URLSearchParams(window.location.search)),
    searchMax: 200,
    failure: (failure) => ({ title: AdminPostsTexts.LOAD_FAILED, message: errorText(failure, adminErrors(AdminPostsTexts.FETCH_FAILED)) }),
  });
  const [dialog, setDialog] = useState<Dialog>();
  const { busyId, act } = useRowAction();
  /** The API's field error for a publish time, shown on the open dialog's field. */
  const [publishAtError, setPublishAtError] = useState<string>();
  const ids = useId();

  function onSelect(name: 'status' | 'sortBy' | 'sortDir' | 'size') {
    return (event: ChangeEvent<HTMLSelectElement>) => {
      const value = event.target.value;
      const next: PostListQuery = { ...query, page: 0 };
      if (name === 'status') next.status = (value || undefined) as StatusFilter | undefined;
      if (name === 'sortBy') next.sortBy = value as PostSortField;
      if (name === 'sortDir') next.sortDir = value as SortDir;
      if (name === 'size') next.size = Number(value);
      void load(next);
    };
  }

  // ---- row actions ------------------------------------------------------------------------

  const replaceRow = (id: number, changes: Partial<PostListItem>) =>
    setData(
      (page) =>
        page && {
          ...page,
          content: page.content.map((row) => (row.id === id ? { ...row, ...changes } : row)),
          posts: page.posts.map((row) => (row.id === id ? { ...row, ...changes } : row)),
        },
    );

  /** The row's fields a post answer changes (status, dates, the schedule). */
  const rowChanges = (post: PostDetail): Partial<PostListItem> => ({
    status: post.status,
    publishedAt: post.publishedAt,
    updatedAt: post.updatedAt,
    scheduledAt: post.scheduledAt,
    requestedPublishAt: post.requestedPublishAt,
    // The row's buttons follow what the answer now allows.
    allowedActions: post.allowedActions,
  });

  /**
   * A post's answer after a review or a status change: the row takes its fields while it still
   * matches the status filter; otherwise it leaves the list (the page is read again).
   */
  function applyAnswer(post: PostListItem, answer: PostDetail): Promise<void> {
    const stillMatches = query.status === undefined || answer.status.toLowerCase() === query.status;
    focusAfter.current = stillMatches ? `${ids}-title-${post.id}` : `${ids}-heading`;
    return keepOrReload(
      stillMatches,
      () => replaceRow(post.id, rowChanges(answer)),
      () => load(query, 'replace'),
    );
  }

  /** A failure's publishAt field error goes on the open dialog's field; anything else is a toast. */
  function failed(failure: unknown, title: string, fallback: string) {
    const field = failure instanceof ApiError ? failure.field('publishAt') : undefined;
    setPublishAtError(field);
    if (!field) notify('error', title, errorText(failure, adminErrors(fallback)));
  }

  async function review(post: PostListItem, decision: ReviewDecision, success: string) {
    setPublishAtError(undefined);
    await act(
      post.id,
      async () => {
        const { data: result, message } = await reviewPost(post.id, decision);
        setDialog(undefined);
        await applyAnswer(post, result.post);
        if (result.post.scheduledAt)
          notify(
            'success',
            message ?? AdminPostsTexts.SCHEDULED,
            AdminPostsTexts.willPublish(post.title, formatViDateTime(result.post.scheduledAt)),
          );
        else
          notify(
            'success',
            success,
            decision.status === 'APPROVED' ? `“${post.title}” is now published.` : `“${post.title}” was sent back to its author.`,
          );
      },
      (failure) => {
        const fallback = decision.status === 'REJECTED' ? AdminPostsTexts.REJECTION_FAILED : AdminPostsTexts.REVIEW_FAILED;
        failed(failure, fallback, fallback);
      },
    );
  }

  async function reschedule(post: PostListItem, publishAt: string) {
    setPublishAtError(undefined);
    await act(
      post.id,
      async () => {
        const { data: updated, message } = await reschedulePost(post.id, publishAt);
        setDialog(undefined);
        await applyAnswer(post, updated);
        notify(
          'success',
          message ?? AdminPostsTexts.RESCHEDULED,
          updated.scheduledAt ? AdminPostsTexts.willPublish(post.title, formatViDateTime(updated.scheduledAt)) : undefined,
        );
      },
      (failure) => {
        failed(failure, AdminPostsTexts.SCHEDULE_FAILED, AdminPostsTexts.SCHEDULE_FALLBACK);
      },
    );
  }

  async function unschedule(post: PostListItem) {
    await act(
      post.id,
      async () => {
        const { data: updated, message } = await cancelSchedule(post.id);
        setDialog(undefined);
        await applyAnswer(post, updated);
        notify('success', message ?? AdminPostsTexts.SCHEDULE_CANCELLED, AdminPostsTexts.backInQueue(post.title));
      },
      (failure) => {
        notify('error', AdminPostsTexts.SCHEDULE_FAILED, errorText(failure, adminErrors(AdminPostsTexts.SCHEDULE_FALLBACK)));
      },
    );
  }

  function openDialog(kind: NonNullable<Dialog>['kind'], post: PostListItem) {
    setPublishAtError(undefined);
    setDialog({ kind, post });
  }

  async function setStatus(post: PostListItem, status: 'PUBLISHED' | 'ARCHIVED') {
    await act(
      post.id,
      async () => {
        const updated = await changeStatus(post.id, status);
        await applyAnswer(post, updated);
        notify(
          'success',
          status === 'PUBLISHED' ? AdminPostsTexts.PUBLISHED : AdminPostsTexts.ARCHIVED,
          `“${post.title}” is now ${statusLabel(status).toLowerCase()}.`,
        );
      },
      (failure) => {
        notify('error', AdminPostsTexts.UPDATE_FAILED, errorText(failure, adminErrors(AdminPostsTexts.UPDATE_FALLBACK)));
      },
    );
  }

  async function remove(post: PostListItem) {
    await act(
      post.id,
      async () => {
        await deletePost(post.id);
        setDialog(undefined);
        notify('success', AdminPostsTexts.DELETED, AdminPostsTexts.deleted(post.title));
        const remaining = (data?.content.length ?? 1) - 1;
        focusAfter.current = `${ids}-heading`;
        // Read the page again: totals, the pager and the rows that move up all change.
        await load(remaining === 0 && query.page > 0 ? { ...query, page: query.page - 1 } : query, 'replace');
      },
      (failure) => {
        // The server's refusal reads 'Delete failed: {server message}' (docs/requirements.md#errors-posts).
        const refused = failure instanceof ApiError && failure.status >= 400 && failure.status < 500 && failure.status !== 401;
        const message = errorText(failure, adminErrors(AdminPostsTexts.DELETE_FALLBACK));
        notify('error', AdminPostsTexts.DELETE_FAILED, refused ? AdminPostsTexts.deleteFailed(message) : message);
      },
    );
  }

  function runAction(post: PostListItem, action: PostRowAction) {
    switch (action) {
      case 'approve':
        // The author asked for a time: the reviewer sees it and keeps or changes it before approving.
        return post.requestedPublishAt
          ? openDialog('approveAt', post)
          : void review(post, { status: 'APPROVED' }, AdminPostsTexts.APPROVED);
      case 'schedule':
        return openDialog('approveAt', post);
      case 'reschedule':
        return openDialog('reschedule', post);
      case 'cancelSchedule':
        return openDialog('cancelSchedule', post);
      case 'approveNow':
        return void review(post, { status: 'APPROVED' }, AdminPostsTexts.APPROVED);
      case 'reject':
        return openDialog('reject', post);
      case 'review':
        return openDialog('review', post);
      case 'publish':
        return void setStatus(post, 'PUBLISHED');
      case 'archive':
        return void setStatus(post, 'ARCHIVED');
    }
  }

  // ---- rendering --------------------------------------------------------------------------

  const rows = data?.content ?? [];
  const chips = activeChips(query);
  const filtered = chips.some((chip) => chip.key === 'search' || chip.key === 'status');
  const first = data && data.totalElements > 0 ? data.number * data.size + 1 : 0;
  const last = data ? data.number * data.size + data.numberOfElements : 0;
  const sortLabel = SORT_FIELDS.find((field) => field.value === query.sortBy)?.label ?? query.sortBy;

  return (
    <div className="space-y-6">
      {banner && (
        <SavedNotice
          text={banner === 'created' ? AdminPostsTexts.CREATED_NOTICE : AdminPostsTexts.UPDATED_NOTICE}
          onDismiss={dismissBanner}
          disabled={!hydrated}
        />
      )}

      <AdminSearchForm
        label="Filter posts"
        action={LIST_PATH}
        onSubmit={submitSearch}
        className="xl:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto]"
        search={{
          id: `${ids}-search`,
          label: 'Search posts',
          placeholder: 'Title, slug or summary',
          maxLength: 200,
          value: searchText,
          onChange: setSearchText,
        }}
      >
        <ListSelect
          id={`${ids}-status`}
          label="Status"
          name="status"
          value={query.status ?? ''}
          allLabel="All statuses"
          options={STATUS_FILTERS}
          onChange={onSelect('status')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-sort`}
          label="Sort by"
          name="sortBy"
          value={query.sortBy}
          options={SORT_FIELDS}
          onChange={onSelect('sortBy')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-dir`}
          label="Direction"
          name="sortDir"
          value={query.sortDir}
          options={SORT_DIRECTIONS}
          onChange={onSelect('sortDir')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-size`}
          label="Posts per page"
          name="size"
          value={query.size}
          options={sizeOptions(PAGE_SIZES)}
          onChange={onSelect('size')}
          className={FILTER_CONTROL_CLASS}
        />
        <button type="submit" className="btn-primary">
          Apply
        </button>
      </AdminSearchForm>

      {chips.length > 0 && (
        <div className="flex flex-wrap items-center gap-2" aria-label="Active filters" role="group">
          <span className="text-sm font-medium">Active filters:</span>
          <ul className="flex flex-wrap gap-2">
            {chips.map((chip) => (
              <li key={chip.key}>
                <a
                  href={postListHref(chip.without)}
                  onClick={navigate(chip.without)}
                  className="inline-flex items-center gap-1 rounded-full bg-brand-50 px-3 py-1 text-xs font-medium text-brand-700 hover:bg-brand-100 dark:bg-slate-800 dark:text-brand-100 dark:hover:bg-slate-700"
                  aria-label={`Remove filter ${chip.label}`}
                >
                  {chip.label}
                  <span aria-hidden="true">×</span>
                </a>
              </li>
            ))}
          </ul>
          <a
            href={LIST_PATH}
            onClick={navigate(DEFAULT_QUERY)}
            className="text-sm font-medium text-brand-700 underline hover:text-brand-600 dark:text-brand-100"
          >
            Clear all
          </a>
        </div>
      )}

      <AdminList
        heading={{ id: `${ids}-heading`, text: 'Posts', visible: true }}
        loading={loading}
        range={{
          testId: 'posts-range',
          loadingText: AdminPostsTexts.LOADING,
          text: data
            ? data.totalElements === 0
              ? countNoun(0, Nouns.POST)
              : `Showing ${first}–${last} of ${countNoun(data.totalElements, Nouns.POST)}`
            : '',
        }}
        failure={
          error
            ? { title: AdminPostsTexts.LOAD_FAILED, message: error, retryHref: postListHref(query), onRetry: navigate(query) }
            : undefined
        }
        failureLayout="banner"
        rowCount={data ? rows.length : undefined}
        empty={{
          title: filtered ? AdminPostsTexts.NO_MATCH : AdminPostsTexts.EMPTY,
          message: filtered ? AdminPostsTexts.NO_MATCH_MESSAGE : AdminPostsTexts.EMPTY_MESSAGE,
          actions: filtered ? (
            <ClearAll href={LIST_PATH} onClick={navigate(DEFAULT_QUERY)} />
          ) : (
            <NewItemLink href="/admin/posts/new" label="New Post" />
          ),
        }}
        pager={{
          page: data?.number ?? 0,
          totalPages: data?.totalPages ?? 0,
          label: 'Posts',
          hrefFor: (page) => postListHref({ ...query, page }),
          action: LIST_PATH,
          keep: pagerKeep(postQueryParams(query)),
          onNavigate: hydrated ? (page) => void load({ ...query, page }) : undefined,
        }}
      >
        <AdminTable
          columns={POST_COLUMNS}
          query={query}
          sortedBy={sortedBy}
          hrefOf={postListHref}
          navigate={navigate}
          caption={`Posts, sorted by ${sortLabel} ${query.sortDir === 'asc' ? 'ascending' : 'descending'}`}
          label="Posts table"
          minWidthClass="min-w-[58rem]"
          testId="posts-table"
        >
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {rows.map((post) => (
              <PostRow
                key={post.id}
                post={post}
                titleId={`${ids}-title-${post.id}`}
                busy={busyId === post.id}
                disabled={!hydrated || busyId !== undefined}
                onAction={runAction}
                onDelete={() => openDialog('delete', post)}
              />
            ))}
          </tbody>
        </AdminTable>
      </AdminList>

      {dialog?.kind === 'reject' && (
        <QuickRejectDialog
          post={dialog.post}
          busy={busyId === dialog.post.id}
          onClose={() => setDialog(undefined)}
          onSubmit={(reason) => void review(dialog.post, { status: 'REJECTED', rejectionReason: reason }, AdminPostsTexts.REJECTED)}
        />
      )}
      {dialog?.kind === 'review' && (
        <DetailedReviewDialog
          post={dialog.post}
          busy={busyId === dialog.post.id}
          publishAtError={publishAtError}
          onClose={() => setDialog(undefined)}
          onSubmit={(decision) =>
            void review(dialog.post, decision, decision.status === 'APPROVED' ? AdminPostsTexts.APPROVED : AdminPostsTexts.REJECTED)
          }
        />
      )}
      {(dialog?.kind === 'approveAt' || dialog?.kind === 'reschedule') && (
        <PublishTimeDialog
          mode={dialog.kind === 'reschedule' ? 'reschedule' : 'approve'}
          post={dialog.post}
          busy={busyId === dialog.post.id}
          serverError={publishAtError}
          onClose={() => setDialog(undefined)}
          onSubmit={(publishAt) =>
            dialog.kind === 'reschedule' && publishAt
              ? void reschedule(dialog.post, publishAt)
              : void review(dialog.post, { status: 'APPROVED', ...(publishAt ? { publishAt } : {}) }, AdminPostsTexts.APPROVED)
          }
        />
      )}
      {dialog?.kind === 'cancelSchedule' && (
        <ConfirmDialog
          title={AdminPostsTexts.CANCEL_SCHEDULE_TITLE}
          message={AdminPostsTexts.cancelScheduleConfirm(dialog.post.title, formatViDateTime(dialog.post.scheduledAt))}
          confirmLabel="Cancel schedule"
          danger
          busy={busyId === dialog.post.id}
          onCancel={() => setDialog(undefined)}
          onConfirm={() => void unschedule(dialog.post)}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={AdminPostsTexts.DELETE_TITLE}
          message={AdminPostsTexts.deleteConfirm(dialog.post.title)}
          confirmLabel="Delete"
          danger
          busy={busyId === dialog.post.id}
          onCancel={() => setDialog(undefined)}
          onConfirm={() => void remove(dialog.post)}
        />
      )}
      <NoticeStack notices={notices} onDismiss={dismiss} />
    </div>
  );
}

const TAGS_SHOWN = 3;

function PostRow({
  post,
  titleId,
  busy,
  disabled,
  onAction,
  onDelete,
}: {
  post: PostListItem;
  titleId: string;
  busy: boolean;
  disabled: boolean;
  onAction: (post: PostListItem, action: PostRowAction) => void;
  onDelete: () => void;
}) {
  const tags = post.tags.slice(0, TAGS_SHOWN);
  const more = post.tags.length - tags.length;
  const date = (value: string | null) =>
    value ? (
      <time dateTime={value} suppressHydrationWarning>
        {adminDate(value)}
      </time>
    ) : (
      <span className="text-slate-500 dark:text-slate-400">—</span>
    );
  const actions: RowAction[] = [
    ...postActions(post).map((action) => ({
      key: action,
      ...ACTION_LABELS[action],
      busy: busy && IMMEDIATE.has(action),
      onClick: () => onAction(post, action),
      opensDialog: action === 'approve' ? Boolean(post.requestedPublishAt) : !IMMEDIATE.has(action),
    })),
    { key: 'edit', label: 'Edit', href: `/admin/posts/${post.id}/edit` },
    { key: 'preview', label: 'Preview', href: `/admin/posts/${post.id}/preview` },
    ...(post.status === 'PUBLISHED' ? [{ key: 'view', label: 'View', href: `/blog/${post.slug}` }] : []),
    { key: 'delete', label: 'Delete', tone: 'bad' as const, onClick: onDelete, opensDialog: true },
  ];
  return (
    <tr data-post-id={post.id} data-status={post.status}>
      <th scope="row" className={`${ADMIN_CELL} font-normal`}>
        {/* Wide enough for ordinary words, and at most this wide: only an unbroken run longer than a line breaks.
            Below 1280 px the table scrolls anyway, so the title and the actions take more room and rows stay short. */}
        <div className="min-w-[10rem] max-w-[18rem] xl:min-w-[8.5rem]">
          <a
            id={titleId}
            href={`/admin/posts/${post.id}/edit`}
            className="font-semibold text-slate-900 hover:underline dark:text-slate-100"
          >
            {post.title}
          </a>
          {/* Cut to the title's width (`w-0 min-w-full`): a long slug or tag never widens the column. */}
          <p className="mt-0.5 w-0 min-w-full truncate text-xs text-slate-600 dark:text-slate-400" title={`/${post.slug}`}>
            /{post.slug}
          </p>
          {(post.isFeatured || tags.length > 0) && (
            <p className="mt-1 flex w-0 min-w-full flex-wrap items-center gap-1 text-xs">
              {post.isFeatured && (
                <span className="rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
                  Featured
                </span>
              )}
              {tags.map((tag) => (
                <span
                  key={tag.id}
                  className="max-w-full truncate rounded-full bg-slate-100 px-2 py-0.5 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
                  title={tag.name}
                >
                  {tag.name}
                </span>
              ))}
              {more > 0 && <span className="text-slate-600 dark:text-slate-400">+{more}</span>}
            </p>
          )}
        </div>
      </th>
      <td className={ADMIN_CELL}>
        {/* One line each, cut with an ellipsis (the whole in the tooltip): never a letter per line. */}
        <span className="block w-[7.5rem] truncate" title={post.authorName}>
          {post.authorName}
        </span>
        <span className="block w-[7.5rem] truncate text-xs text-slate-600 dark:text-slate-400" title={post.authorEmail}>
          <AdminEmail email={post.authorEmail} />
        </span>
      </td>
      <td className={ADMIN_CELL}>
        <span
          className={`whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-semibold ${statusTone(post.status)}`}
          data-testid="post-status"
        >
          {statusLabel(post.status)}
        </span>
        {post.scheduledAt && (
          <span className="mt-1 block">
            <ScheduledBadge scheduledAt={post.scheduledAt} />
          </span>
        )}
        {!post.scheduledAt && post.requestedPublishAt && post.status === 'PENDING_REVIEW' && (
          <span className="mt-1 block text-xs text-slate-700 dark:text-slate-300" data-testid="requested-publish-at">
            <time dateTime={post.requestedPublishAt} suppressHydrationWarning>
              {AdminPostsTexts.requested(formatViDateTime(post.requestedPublishAt))}
            </time>
          </span>
        )}
      </td>
      <td className={`${ADMIN_CELL} tabular-nums`}>{post.viewCount}</td>
      {/* A date may go onto two lines at its space ('Nov 28, / 2026'), never inside a word. */}
      <td className={ADMIN_CELL}>{date(post.createdAt)}</td>
      <td className={ADMIN_CELL}>{date(post.updatedAt)}</td>
      <td className={ADMIN_CELL}>{date(post.publishedAt)}</td>
      <td className={`${ADMIN_CELL} ${ACTIONS_CELL}`}>
        <RowActions actions={actions} disabled={disabled} describedBy={titleId} className="w-[13.5rem] xl:w-[10.5rem]" />
      </td>
    </tr>
  );
}
