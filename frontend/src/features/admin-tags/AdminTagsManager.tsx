/**
 * /admin/tags, the list mode (docs/requirements.md#screen-admin-tags, docs/requirements.md#tag-states, docs/requirements.md#errors-tags, docs/requirements.md#constants-paging): a card grid with search, an
 * active/inactive/all filter, sort and page size, and the pager. Rendered on the server from the
 * address (a GET form and links, so it reads without JavaScript); once hydrated the island
 * follows the address without page loads (search after 300 ms of quiet) and runs Activate,
 * Deactivate and Delete. Delete on an active tag its card counts posts for offers deactivation
 * at once (docs/requirements.md#tag-states), without the delete confirmation; the server refuses such a delete (409)
 * anyway, so a list older than the tag's first post ends in the same offer.
 */
import { countNoun, Nouns } from '../../lib/texts/nouns';
import { useId, useState, type ChangeEvent } from 'react';
import { ApiError } from '../../lib/api/errors';
import { adminDate } from '../admin-posts';
import {
  DEFAULT_TAG_QUERY,
  TAG_FILTERS,
  TAG_PAGE_SIZES,
  TAG_SORT_FIELDS,
  TAGS_PATH,
  safeColour,
  tagListHref,
  tagQueryFrom,
  tagQueryParams,
  type AdminTag,
  type SortDir,
  type TagFilter,
  type TagListPage,
  type TagListQuery,
  type TagSortField,
} from './admin-tags';
import { AdminTagsTexts } from './texts';
import { adminErrors } from '../admin-posts';
import { errorText } from '../../lib/texts/error-text';
import { Dialog, ConfirmDialog } from '../../components/islands/Dialog';
import { NoticeStack } from '../../components/islands/notices';
import {
  AdminList,
  AdminSearchForm,
  ClearAll,
  keepOrReload,
  NewItemLink,
  pagerKeep,
  RowActions,
  SavedNotice,
  useRowAction,
} from '../../components/islands/AdminList';
import { Spinner } from '../../components/islands/form-controls';
import ListSelect, { SORT_DIRECTIONS, sizeOptions } from '../../components/islands/ListSelect';
import { useUrlList } from '../../components/islands/useUrlList';
import { deleteTag, listTags, setTagActive } from './tag-api';
import { FILTER_CONTROL_CLASS } from '../../lib/form-classes';
import { styleRef } from '../../components/islands/inline-style';

export interface AdminTagsManagerProps {
  initialQuery: TagListQuery;
  initialPage: TagListPage | null;
  initialError?: string;
  notice?: 'created' | 'updated';
}

type Dialog = { kind: 'delete' | 'inUse'; tag: AdminTag; message?: string } | undefined;

export default function AdminTagsManager({ initialQuery, initialPage, initialError, notice }: AdminTagsManagerProps) {
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
  } = useUrlList<TagListQuery, TagListPage>({
    initialQuery,
    initialPage,
    initialError,
    notice,
    hrefOf: tagListHref,
    fetchPage: listTags,
    queryFromLocation: () => tagQueryFrom(new URLSearchParams(window.location.search)),
    searchMax: 100,
    failure: (failure) => ({ title: AdminTagsTexts.LIST_FAILED, message: errorText(failure, adminErrors(AdminTagsTexts.LIST_FAILED)) }),
  });
  const [dialog, setDialog] = useState<Dialog>();
  const { busyId, act } = useRowAction();
  const ids = useId();

  function onSelect(name: 'filter' | 'sortBy' | 'sortDir' | 'size') {
    return (event: ChangeEvent<HTMLSelectElement>) => {
      const value = event.target.value;
      const next: TagListQuery = { ...query, page: 0 };
      if (name === 'filter') next.filter = value as TagFilter;
      if (name === 'sortBy') next.sortBy = value as TagSortField;
      if (name === 'sortDir') next.sortDir = value as SortDir;
      if (name === 'size') next.size = Number(value);
      void load(next);
    };
  }

  // ---- actions ------------------------------------------------------------------------------

  const replaceTag = (tag: AdminTag) =>
    setData((page) => page && { ...page, tags: page.tags.map((item) => (item.id === tag.id ? tag : item)) });

  async function toggle(tag: AdminTag, active: boolean) {
    await act(
      tag.id,
      async () => {
        const updated = await setTagActive(tag.id, active);
        setDialog(undefined);
        // Under 'Active' a deactivated tag leaves the list (and under 'Inactive' an activated one).
        const stillMatches = query.filter === 'all' || (query.filter === 'active') === updated.isActive;
        focusAfter.current = stillMatches ? `${ids}-tag-${tag.id}` : `${ids}-heading`;
        await keepOrReload(
          stillMatches,
          () => replaceTag(updated),
          () => load(query, 'replace'),
        );
        notify(
          'success',
          active ? AdminTagsTexts.ACTIVATED : AdminTagsTexts.DEACTIVATED,
          active ? AdminTagsTexts.activated(tag.name) : AdminTagsTexts.deactivated(tag.name),
        );
      },
      (failure) => {
        notify(
          'error',
          active ? AdminTagsTexts.ACTIVATE_FAILED : AdminTagsTexts.DEACTIVATE_FAILED,
          errorText(failure, adminErrors(AdminTagsTexts.STATUS_FAILED)),
        );
      },
    );
  }

  async function remove(tag: AdminTag) {
    await act(
      tag.id,
      async () => {
        await deleteTag(tag.id);
        setDialog(undefined);
        notify('success', AdminTagsTexts.DELETED, AdminTagsTexts.deleted(tag.name));
        focusAfter.current = `${ids}-heading`;
        const remaining = (data?.tags.length ?? 1) - 1;
        await load(remaining === 0 && query.page > 0 ? { ...query, page: query.page - 1 } : query, 'replace');
      },
      (failure) => {
        if (failure instanceof ApiError && failure.status === 409) {
          // Used by posts: offer deactivation instead (docs/requirements.md#tag-states).
          setDialog({ kind: 'inUse', tag, message: failure.message });
          return;
        }
        notify('error', AdminTagsTexts.DELETE_FAILED, errorText(failure, adminErrors(AdminTagsTexts.DELETE_FAILED_RETRY)));
      },
    );
  }

  // ---- rendering ----------------------------------------------------------------------------

  const tags = data?.tags ?? [];
  const filtered = Boolean(query.search) || query.filter !== 'active';
  const first = data && data.totalElements > 0 ? data.page * data.size + 1 : 0;
  const last = data ? data.page * data.size + tags.length : 0;

  return (
    <div className="space-y-6">
      {banner && (
        <SavedNotice
          text={banner === 'created' ? AdminTagsTexts.CREATED_NOTICE : AdminTagsTexts.UPDATED_NOTICE}
          onDismiss={dismissBanner}
          disabled={!hydrated}
        />
      )}

      <AdminSearchForm
        label="Filter tags"
        action={TAGS_PATH}
        onSubmit={submitSearch}
        className="xl:grid-cols-[2fr_1fr_1fr_1fr_1fr_auto]"
        search={{
          id: `${ids}-search`,
          label: 'Search tags',
          placeholder: 'Name or slug',
          maxLength: 100,
          value: searchText,
          onChange: setSearchText,
        }}
      >
        <ListSelect
          id={`${ids}-filter`}
          label="Show"
          name="filter"
          value={query.filter}
          options={TAG_FILTERS}
          onChange={onSelect('filter')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-sort`}
          label="Sort by"
          name="sortBy"
          value={query.sortBy}
          options={TAG_SORT_FIELDS}
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
          label="Tags per page"
          name="size"
          value={query.size}
          options={sizeOptions(TAG_PAGE_SIZES)}
          onChange={onSelect('size')}
          className={FILTER_CONTROL_CLASS}
        />
        <button type="submit" className="btn-primary">
          Apply
        </button>
      </AdminSearchForm>

      {filtered && (
        <p className="text-sm">
          <a
            href={TAGS_PATH}
            onClick={navigate(DEFAULT_TAG_QUERY)}
            className="font-medium text-brand-700 underline hover:text-brand-600 dark:text-brand-100"
          >
            Clear all
          </a>
        </p>
      )}

      <AdminList
        heading={{ id: `${ids}-heading`, text: 'Tags', visible: true }}
        loading={loading}
        range={{
          testId: 'tags-range',
          loadingText: AdminTagsTexts.LOADING,
          text: data
            ? data.totalElements === 0
              ? countNoun(0, Nouns.TAG)
              : `Showing ${first}–${last} of ${countNoun(data.totalElements, Nouns.TAG)}`
            : '',
        }}
        failure={
          error ? { title: AdminTagsTexts.LIST_FAILED, message: error, retryHref: tagListHref(query), onRetry: navigate(query) } : undefined
        }
        failureLayout="banner"
        rowCount={data ? tags.length : undefined}
        empty={{
          title: filtered ? AdminTagsTexts.NO_MATCH : AdminTagsTexts.EMPTY,
          message: filtered ? AdminTagsTexts.NO_MATCH_MESSAGE : AdminTagsTexts.EMPTY_MESSAGE,
          actions: filtered ? (
            <ClearAll href={TAGS_PATH} onClick={navigate(DEFAULT_TAG_QUERY)} />
          ) : (
            <NewItemLink href="/admin/tags/new" label="Create Tag" />
          ),
        }}
        pager={{
          page: data?.page ?? 0,
          totalPages: data?.totalPages ?? 0,
          label: 'Tags',
          hrefFor: (page) => tagListHref({ ...query, page }),
          action: TAGS_PATH,
          keep: pagerKeep(tagQueryParams(query)),
          onNavigate: hydrated ? (page) => void load({ ...query, page }) : undefined,
        }}
      >
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="tag-grid">
          {tags.map((tag) => (
            <TagCard
              key={tag.id}
              tag={tag}
              headingId={`${ids}-tag-${tag.id}`}
              busy={busyId === tag.id}
              disabled={!hydrated || busyId !== undefined}
              onToggle={() => void toggle(tag, !tag.isActive)}
              onDelete={() =>
                setDialog(
                  tag.isActive && tag.postCount > 0
                    ? { kind: 'inUse', tag, message: AdminTagsTexts.inUse(tag.postCount) }
                    : { kind: 'delete', tag },
                )
              }
            />
          ))}
        </ul>
      </AdminList>

      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={AdminTagsTexts.DELETE_TITLE}
          message={AdminTagsTexts.deleteConfirm(dialog.tag.name)}
          confirmLabel="Delete"
          danger
          busy={busyId === dialog.tag.id}
          onCancel={() => setDialog(undefined)}
          onConfirm={() => void remove(dialog.tag)}
        />
      )}
      {dialog?.kind === 'inUse' && (
        <Dialog
          title={AdminTagsTexts.IN_USE_TITLE}
          description={dialog.message}
          onClose={() => setDialog(undefined)}
          busy={busyId === dialog.tag.id}
          role="alertdialog"
        >
          <p className="text-sm">{AdminTagsTexts.IN_USE_HINT}</p>
          <div className="mt-4 flex justify-end gap-2">
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setDialog(undefined)}
              disabled={busyId === dialog.tag.id}
              data-autofocus
            >
              Cancel
            </button>
            <button
              type="button"
              className="btn-primary"
              onClick={() => void toggle(dialog.tag, false)}
              disabled={busyId === dialog.tag.id}
            >
              {busyId === dialog.tag.id && <Spinner />}
              Deactivate Instead
            </button>
          </div>
        </Dialog>
      )}
      <NoticeStack notices={notices} onDismiss={dismiss} />
    </div>
  );
}

function TagCard({
  tag,
  headingId,
  busy,
  disabled,
  onToggle,
  onDelete,
}: {
  tag: AdminTag;
  headingId: string;
  busy: boolean;
  disabled: boolean;
  onToggle: () => void;
  onDelete: () => void;
}) {
  const colour = safeColour(tag.color);
  return (
    <li className="card flex flex-col p-4" data-tag-id={tag.id} data-active={tag.isActive}>
      <div className="flex items-start gap-3">
        <span
          className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg border border-slate-200 text-lg dark:border-slate-700"
          ref={styleRef({ backgroundColor: colour ? `${colour}26` : '', borderColor: colour ?? '' })}
          aria-hidden="true"
        >
          {tag.icon ? Array.from(tag.icon).slice(0, 2).join('') : '#'}
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="truncate font-semibold">
            <a id={headingId} href={`/admin/tags/${tag.id}/edit`} className="hover:underline">
              {tag.name}
            </a>
          </h3>
          <p className="truncate text-xs text-slate-600 dark:text-slate-400">/{tag.slug}</p>
        </div>
        <span
          className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${tag.isActive ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200' : 'bg-slate-200 text-slate-800 dark:bg-slate-700 dark:text-slate-100'}`}
          data-testid="tag-status"
        >
          {tag.isActive ? 'Active' : 'Inactive'}
        </span>
      </div>
      {tag.description && <p className="mt-3 line-clamp-3 text-sm text-slate-700 dark:text-slate-300">{tag.description}</p>}
      <p className="mt-3 text-xs text-slate-600 dark:text-slate-400">
        <span data-testid="tag-post-count">{countNoun(tag.postCount, Nouns.POST)}</span> · created{' '}
        <time dateTime={tag.createdAt} suppressHydrationWarning>
          {adminDate(tag.createdAt)}
        </time>
      </p>
      <RowActions
        className="mt-4 border-t border-slate-200 pt-3 dark:border-slate-800"
        disabled={disabled}
        describedBy={headingId}
        actions={[
          { key: 'edit', label: 'Edit', href: `/admin/tags/${tag.id}/edit` },
          { key: 'posts', label: 'View Posts', href: `/admin/tags/${tag.id}/posts` },
          { key: 'toggle', label: tag.isActive ? 'Deactivate' : 'Activate', busy, onClick: onToggle },
          { key: 'delete', label: 'Delete', tone: 'bad', onClick: onDelete, opensDialog: true },
        ]}
      />
    </li>
  );
}
