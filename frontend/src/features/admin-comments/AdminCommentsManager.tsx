import { useId, useState, type ChangeEvent } from 'react';
import { countNoun, Nouns } from '../../lib/texts/nouns';
import {
  COMMENTS_PATH,
  MODERATION_FILTERS,
  MODERATION_PAGE_SIZES,
  MODERATION_SORTS,
  moderationApiQuery,
  moderationHref,
  moderationParams,
  moderationQuery,
  SEARCH_MAX,
  type BulkAction,
  type ModerationComment,
  type ModerationPage,
  type ModerationQuery,
} from './admin-comments';
import {
  ACTION_TEXTS,
  FILTER_LABELS,
  MODERATION_ERRORS,
  MODERATION_LABELS,
  ModerationTexts as T,
  REASON_LABELS,
  SORT_LABELS,
} from './texts';
import { adminDateTime, adminRelativeTime } from '../admin-users';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { errorText } from '../../lib/texts/error-text';
import { FILTER_CONTROL_CLASS } from '../../lib/form-classes';
import { ConfirmDialog } from '../../components/islands/Dialog';
import { NoticeStack } from '../../components/islands/notices';
import { AdminList, AdminSearchForm, RowActions } from '../../components/islands/AdminList';
import ListSelect, { sizeOptions } from '../../components/islands/ListSelect';
import { useUrlList } from '../../components/islands/useUrlList';
import { hideDescription, HideDialog } from '../comments';
import { AdminEmail } from '../../components/islands/AdminEmail';

export type ModerationLoad = { ok: true; data: ModerationPage } | { ok: false; message: string };

const api = () => browserApi();
const listQueue = (query: ModerationQuery) => unwrap(api().GET('/api/v1/admin/comments', { params: { query: moderationApiQuery(query) } }));

/** One comment's action (POST hide / restore / dismiss-reports, DELETE). */
async function actOn(comment: ModerationComment, action: BulkAction, reason?: string): Promise<void> {
  const params = { path: { id: comment.id } };
  if (action === 'hide') await unwrap(api().POST('/api/v1/comments/{id}/hide', { params, body: { reason: reason ?? '' } }));
  else if (action === 'restore') await unwrap(api().POST('/api/v1/admin/comments/{id}/restore', { params }));
  else if (action === 'dismiss') await unwrap(api().POST('/api/v1/admin/comments/{id}/dismiss-reports', { params }));
  else await unwrap(api().DELETE('/api/v1/admin/comments/{id}', { params }));
}

/** POST /admin/comments/bulk: the action on every id, one result per id. */
const actOnMany = (ids: number[], action: BulkAction, reason?: string) =>
  unwrap(api().POST('/api/v1/admin/comments/bulk', { body: reason === undefined ? { ids, action } : { ids, action, reason } }));
type BulkOutcome = Awaited<ReturnType<typeof actOnMany>>;

/** What waits for the admin's answer: a reason to hide, or a delete to confirm (one comment, or the selection). */
type Pending = { action: 'hide' | 'delete'; comment?: ModerationComment };

const FILTER_OPTIONS = MODERATION_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }));
const SORT_OPTIONS = MODERATION_SORTS.map((value) => ({ value, label: SORT_LABELS[value] }));
const HEADING_ID = 'moderation-list-heading';
const BULK_ACTIONS: BulkAction[] = ['hide', 'restore', 'dismiss', 'delete'];

/** The comment's author as the queue names them ('Unknown User' when the account is gone, as the spec words it). */
// A reply from the fediverse names where it came from (docs/federation.md).
const authorName = (comment: { author: { fullName: string } | null; remoteAuthor?: { name: string; handle: string } }) =>
  comment.author?.fullName ??
  (comment.remoteAuthor ? `${comment.remoteAuthor.name} (${comment.remoteAuthor.handle}, from the fediverse)` : 'Unknown User');

const excerpt = (text: string, length = 140) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

/**
 * The moderation queue (/admin/comments): filter (reported, hidden, held, all),
 * search by text or author, newest or most reported first, page size and the pager; each
 * comment with its post, the comment it answers and its reports; hide (with a reason), restore,
 * delete (confirmed) and dismiss reports, one at a time or on a selection (with each id's
 * result). The address is the state (useUrlList), as on /admin/users: the server renders the
 * queue for it; without JavaScript the filters are a GET form and the pager links.
 */
export default function AdminCommentsManager({ initialQuery, initial }: { initialQuery: ModerationQuery; initial: ModerationLoad }) {
  const {
    hydrated,
    query,
    data,
    error,
    failedQuery,
    loading,
    searchText,
    setSearchText,
    notices,
    notify,
    dismiss,
    load,
    navigate,
    submitSearch,
    focusAfter,
  } = useUrlList<ModerationQuery, ModerationPage>({
    initialQuery,
    initialPage: initial.ok ? initial.data : null,
    initialError: initial.ok ? undefined : initial.message,
    hrefOf: moderationHref,
    fetchPage: listQueue,
    queryFromLocation: () =>
      window.location.pathname === COMMENTS_PATH ? moderationQuery(new URLSearchParams(window.location.search)) : undefined,
    searchMax: SEARCH_MAX,
    failure: (failure) => ({ message: errorText(failure, MODERATION_ERRORS) }),
    replaceSameAddress: true,
    submitHistory: 'replace',
    keepTypedSearch: true,
  });
  const ids = useId();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [pending, setPending] = useState<Pending>();
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ action: BulkAction; results: BulkOutcome }>();

  const page = error === undefined ? (data ?? undefined) : undefined;
  const shownIds = page?.content.map((comment) => comment.id) ?? [];
  const chosen = shownIds.filter((id) => selected.has(id));
  const allChosen = shownIds.length > 0 && chosen.length === shownIds.length;

  /** The queue read again after a change: the selection cleared, focus on the list's heading (the row may have left it). */
  async function refresh() {
    setSelected(new Set());
    focusAfter.current = HEADING_ID;
    await load(query, 'none');
  }

  function change(next: ModerationQuery) {
    setSelected(new Set());
    setOutcome(undefined);
    void load(next);
  }

  function onSelect(name: 'filter' | 'sort' | 'size') {
    return (event: ChangeEvent<HTMLSelectElement>) => {
      const value = event.target.value;
      const next: ModerationQuery = { ...query, page: 0 };
      if (name === 'filter') next.filter = moderationQuery(new URLSearchParams({ filter: value })).filter;
      if (name === 'sort') next.sort = moderationQuery(new URLSearchParams({ sort: value })).sort;
      if (name === 'size') next.size = Number(value);
      change(next);
    };
  }

  /** One action on one comment or on the selection; then the page is read again. */
  async function act(action: BulkAction, work: () => Promise<void>) {
    setBusy(true);
    try {
      await work();
      setPending(undefined);
      await refresh();
    } catch (caught) {
      // The hide dialog stays open and shows the failure itself.
      if (action === 'hide') throw caught;
      notify('error', T.ACTION_FAILED, errorText(caught, MODERATION_ERRORS));
      setPending(undefined);
    } finally {
      setBusy(false);
    }
  }

  const runOne = (comment: ModerationComment, action: BulkAction, reason?: string) =>
    act(action, async () => {
      await actOn(comment, action, reason);
      notify('success', ACTION_TEXTS[action].done, excerpt(comment.content, 60));
    });

  const runMany = (action: BulkAction, reason?: string) =>
    act(action, async () => setOutcome({ action, results: await actOnMany(chosen, action, reason) }));

  function changePage(target: number) {
    setSelected(new Set());
    void load({ ...query, page: target });
  }

  function ask(action: BulkAction, comment?: ModerationComment) {
    if (action === 'hide' || action === 'delete') setPending({ action, comment });
    else if (comment) void runOne(comment, action);
    else void runMany(action);
  }

  const toggle = (id: number) => (event: ChangeEvent<HTMLInputElement>) =>
    setSelected((current) => {
      const next = new Set(current);
      if (event.target.checked) next.add(id);
      else next.delete(id);
      return next;
    });

  const keep = moderationParams({ ...query, page: 0 });
  const filtered = query.filter !== 'all' || Boolean(query.search);

  return (
    <div>
      <div>
        <h1 className="font-serif text-3xl font-bold">{T.TITLE}</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400" data-testid="moderation-total">
          {page ? `${T.count(page.totalElements)} · ${FILTER_LABELS[query.filter]}` : T.INTRO}
        </p>
      </div>

      <AdminSearchForm
        label="Search and filter comments"
        action={COMMENTS_PATH}
        onSubmit={submitSearch}
        className="mt-6 xl:grid-cols-[2fr_1fr_1fr_auto_auto]"
        search={{
          id: `${ids}-search`,
          label: 'Search comments',
          placeholder: 'Text or author',
          maxLength: SEARCH_MAX,
          value: searchText,
          onChange: setSearchText,
        }}
      >
        <ListSelect
          id={`${ids}-filter`}
          label="Show"
          name="filter"
          value={query.filter}
          options={FILTER_OPTIONS}
          onChange={onSelect('filter')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-sort`}
          label="Sort"
          name="sort"
          value={query.sort}
          options={SORT_OPTIONS}
          onChange={onSelect('sort')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-size`}
          label="Per page"
          name="size"
          value={query.size}
          options={sizeOptions(MODERATION_PAGE_SIZES)}
          onChange={onSelect('size')}
          className={FILTER_CONTROL_CLASS}
        />
        <div className="flex gap-2">
          <button type="submit" className="btn-secondary">
            Search
          </button>
        </div>
      </AdminSearchForm>

      <p className="sr-only" aria-live="polite" data-testid="moderation-status">
        {loading ? T.LOADING : page ? `${T.count(page.totalElements)} found` : ''}
      </p>

      {outcome && (
        <section className="card mt-6 p-4" aria-labelledby={`${ids}-outcome`} data-testid="bulk-outcome">
          <div className="flex flex-wrap items-start justify-between gap-2">
            <h2 id={`${ids}-outcome`} className="font-semibold">
              {ACTION_TEXTS[outcome.action].label}: {outcome.results.filter((result) => result.ok).length} of {outcome.results.length} done
            </h2>
            <button type="button" className="btn-ghost px-2 py-1 text-sm" onClick={() => setOutcome(undefined)}>
              Close<span className="sr-only"> the results</span>
            </button>
          </div>
          <ul className="mt-2 space-y-1 text-sm">
            {outcome.results.map((result) => (
              <li
                key={result.id}
                data-result-id={result.id}
                className={result.ok ? 'text-emerald-800 dark:text-emerald-200' : 'text-red-700 dark:text-red-300'}
              >
                Comment #{result.id}: {result.ok ? 'done' : (result.message ?? 'failed')}
              </li>
            ))}
          </ul>
        </section>
      )}

      <AdminList
        className="mt-6"
        heading={{ id: HEADING_ID, text: 'Comments', visible: false }}
        loading={loading}
        failure={
          error !== undefined
            ? {
                title: failedQuery?.search ? T.SEARCH_FAILED : T.LOAD_FAILED,
                message: error,
                retryHref: moderationHref(query),
                onRetry: navigate(query, 'none'),
              }
            : undefined
        }
        failureLayout="panel"
        loadingText={T.LOADING}
        rowCount={page ? page.content.length : undefined}
        empty={{ title: T.EMPTY, message: filtered ? T.EMPTY_FILTERED : undefined, testId: 'moderation-empty' }}
        toolbar={
          <div className="card flex flex-wrap items-center gap-3 p-3" role="group" aria-label="Selected comments">
            <label className="inline-flex items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                className="h-4 w-4 accent-brand-600"
                checked={allChosen}
                ref={(box) => {
                  if (box) box.indeterminate = chosen.length > 0 && !allChosen;
                }}
                onChange={(event) => setSelected(event.target.checked ? new Set(shownIds) : new Set())}
                disabled={!hydrated}
              />
              Select all on this page
            </label>
            <span className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
              {T.selected(chosen.length)}
            </span>
            <div className="flex flex-wrap gap-2 sm:ml-auto">
              {BULK_ACTIONS.map((action) => (
                <button
                  key={action}
                  type="button"
                  className={
                    action === 'delete'
                      ? 'btn bg-red-600 px-3 py-1.5 text-sm text-white hover:bg-red-700 disabled:opacity-50'
                      : 'btn-secondary px-3 py-1.5 text-sm'
                  }
                  disabled={chosen.length === 0 || busy}
                  onClick={() => ask(action)}
                  aria-haspopup={action === 'hide' || action === 'delete' ? 'dialog' : undefined}
                >
                  {ACTION_TEXTS[action].label}
                  <span className="sr-only"> selected</span>
                </button>
              ))}
            </div>
          </div>
        }
        pager={{
          page: page?.number ?? 0,
          totalPages: page?.totalPages ?? 0,
          label: 'Comments',
          hrefFor: (target) => moderationHref({ ...query, page: target }),
          action: COMMENTS_PATH,
          keep,
          onNavigate: hydrated ? changePage : undefined,
        }}
      >
        <ul className={`mt-4 space-y-4 transition-opacity ${loading ? 'opacity-60' : ''}`} aria-label="Comments to review">
          {(page?.content ?? []).map((comment) => (
            <ModerationRow
              key={comment.id}
              comment={comment}
              checked={selected.has(comment.id)}
              onCheck={toggle(comment.id)}
              busy={busy}
              onAction={(action) => ask(action, comment)}
              hydrated={hydrated}
            />
          ))}
        </ul>
      </AdminList>

      {pending?.action === 'hide' && (
        <HideDialog
          title={pending.comment ? 'Hide Comment' : 'Hide Selected Comments'}
          description={hideDescription(pending.comment ? `${authorName(pending.comment)}'s comment` : T.theSelected(chosen.length))}
          hide={(reason) => (pending.comment ? runOne(pending.comment, 'hide', reason) : runMany('hide', reason))}
          onCancel={() => setPending(undefined)}
          onDone={() => setPending(undefined)}
        />
      )}
      {pending?.action === 'delete' && (
        <ConfirmDialog
          title={pending.comment ? 'Delete Comment' : 'Delete Selected Comments'}
          message={pending.comment ? ACTION_TEXTS.delete.confirm : `Delete ${T.theSelected(chosen.length)}? This cannot be undone.`}
          confirmLabel="Delete"
          danger
          busy={busy}
          onConfirm={() => void (pending.comment ? runOne(pending.comment, 'delete') : runMany('delete'))}
          onCancel={() => setPending(undefined)}
        />
      )}
      <NoticeStack notices={notices} onDismiss={dismiss} />
    </div>
  );
}

interface RowProps {
  comment: ModerationComment;
  checked: boolean;
  onCheck: (event: ChangeEvent<HTMLInputElement>) => void;
  busy: boolean;
  hydrated: boolean;
  onAction: (action: BulkAction) => void;
}

const BADGE: Record<string, string> = {
  VISIBLE: 'bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100',
  HIDDEN: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  HELD: 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100',
};

/** One comment of the queue, as a card at every width: selection, context, reports and actions. */
function ModerationRow({ comment, checked, onCheck, busy, hydrated, onAction }: RowProps) {
  const checkId = useId();
  const hidden = comment.moderation === 'HIDDEN';
  const held = comment.moderation === 'HELD';
  const actions: BulkAction[] = [
    ...(hidden ? [] : (['hide'] as const)),
    ...(hidden || held ? (['restore'] as const) : []),
    ...(comment.reportCount > 0 ? (['dismiss'] as const) : []),
    'delete',
  ];
  return (
    <li className="card p-4" data-moderation-row={comment.id}>
      <article aria-labelledby={`${checkId}-label`}>
        <div className="flex items-start gap-3">
          <input
            id={checkId}
            type="checkbox"
            className="mt-1 h-4 w-4 shrink-0 accent-brand-600"
            checked={checked}
            onChange={onCheck}
            disabled={!hydrated}
          />
          <div className="min-w-0 flex-1">
            <label htmlFor={checkId} id={`${checkId}-label`} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
              <span className="font-semibold wrap-anywhere">{authorName(comment)}</span>
              {comment.author && (
                <span className="break-all text-slate-600 dark:text-slate-400">
                  <AdminEmail email={comment.author.email} />
                </span>
              )}
              <span className="sr-only">, comment #{comment.id}</span>
            </label>
            <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-600 dark:text-slate-400">
              <span className={`rounded-full px-2 py-0.5 font-semibold ${BADGE[comment.moderation] ?? BADGE.VISIBLE}`}>
                {MODERATION_LABELS[comment.moderation] ?? comment.moderation}
              </span>
              {comment.reportCount > 0 && (
                <span
                  className="rounded-full bg-red-50 px-2 py-0.5 font-semibold text-red-800 dark:bg-red-950/60 dark:text-red-200"
                  data-testid="report-count"
                >
                  {countNoun(comment.reportCount, Nouns.REPORT)}
                </span>
              )}
              <time dateTime={comment.createdAt} title={adminDateTime(comment.createdAt)} suppressHydrationWarning>
                {adminRelativeTime(comment.createdAt)}
              </time>
              <span className="min-w-0">
                on{' '}
                <a
                  href={`/blog/${comment.post.slug}#comment-${comment.id}`}
                  className="font-medium text-brand-700 underline wrap-anywhere dark:text-brand-100"
                >
                  {comment.post.title}
                </a>
              </span>
            </p>
            {comment.parent && (
              <blockquote className="mt-3 border-l-2 border-slate-300 pl-3 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
                <span className="font-medium">In reply to {comment.parent.author?.fullName ?? 'Unknown User'}:</span>{' '}
                <span className="wrap-anywhere">{excerpt(comment.parent.content)}</span>
              </blockquote>
            )}
            <p className="mt-3 whitespace-pre-wrap wrap-anywhere text-slate-900 dark:text-slate-100" data-testid="moderation-content">
              {comment.content}
            </p>
            {hidden && (
              <p className="mt-2 text-sm text-red-800 dark:text-red-200">
                Hidden{comment.hiddenBy ? ` by ${comment.hiddenBy.fullName}` : ''}
                {comment.hiddenReason ? `: ${comment.hiddenReason}` : ''}
              </p>
            )}
            {comment.reports.length > 0 && (
              <details className="mt-3 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-950" open={comment.reports.length <= 3}>
                <summary className="cursor-pointer font-medium">Reports ({comment.reports.length})</summary>
                <ul className="mt-2 space-y-2">
                  {comment.reports.map((report, index) => (
                    <li key={`${report.reporter.id}-${index}`} data-testid="moderation-report">
                      <span className="font-semibold">{REASON_LABELS[report.reason] ?? report.reason}</span>
                      {report.details ? <span className="wrap-anywhere">: {report.details}</span> : null}
                      <span className="block text-xs text-slate-600 dark:text-slate-400">
                        by {report.reporter.fullName},{' '}
                        <time dateTime={report.createdAt} title={adminDateTime(report.createdAt)} suppressHydrationWarning>
                          {adminRelativeTime(report.createdAt)}
                        </time>
                      </span>
                    </li>
                  ))}
                </ul>
              </details>
            )}
            <RowActions
              className="mt-3"
              disabled={busy || !hydrated}
              srSuffix={`comment by ${authorName(comment)}`}
              actions={actions.map((action) => ({
                key: action,
                label: action === 'restore' && held ? 'Approve' : ACTION_TEXTS[action].label,
                tone: action === 'delete' ? 'bad' : 'plain',
                onClick: () => onAction(action),
                opensDialog: action === 'hide' || action === 'delete',
              }))}
            />
          </div>
        </div>
      </article>
    </li>
  );
}
