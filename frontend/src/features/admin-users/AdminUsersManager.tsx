import { useCallback, useId, useRef, useState, type ChangeEvent, type MouseEvent } from 'react';
import {
  adminDate,
  adminDateTime,
  FILTER_ROLES,
  hasFilters,
  USER_PAGE_SIZES,
  USER_STATUSES,
  USERS_PATH,
  userListApiQuery,
  userListHref,
  userListParams,
  userListQuery,
  userSortedBy,
  type AdminUser,
  type AdminUserPage,
  type UserListQuery,
  type UserSortField,
} from './admin-users';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { roleLabel } from '../../lib/roles';
import { AdminUsersTexts as T, STATUS_LABELS, USERS_LOAD_ERRORS } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { NoticeStack } from '../../components/islands/notices';
import { ADMIN_CELL, AdminList, AdminSearchForm, AdminTable, type AdminColumn } from '../../components/islands/AdminList';
import { AvatarImage } from '../../components/islands/form-controls';
import ListSelect, { sizeOptions } from '../../components/islands/ListSelect';
import { useUrlList } from '../../components/islands/useUrlList';
import AdminUserAddDialog from './AdminUserAddDialog';
import { AdminUserRoleBadges, AdminUserStatusBadge, AdminUserVerifiedBadge } from './AdminUserBadges';
import { FILTER_CONTROL_CLASS } from '../../lib/form-classes';
import { AdminEmail } from '../../components/islands/AdminEmail';

/** Role badges: up to 3 in the list. */
const LIST_ROLE_BADGES = 3;
const LIST_PATH = USERS_PATH;

export type UsersLoad = { ok: true; data: AdminUserPage } | { ok: false; message: string; searched: boolean };

interface Props {
  initialQuery: UserListQuery;
  initial: UsersLoad;
  canAssignAdmin: boolean;
}

const COLUMNS: readonly AdminColumn<UserSortField>[] = [
  { label: 'User', sort: 'fullName' },
  { label: 'Roles' },
  { label: 'Status' },
  { label: 'Verified' },
  { label: 'Posts', className: 'text-right' },
  { label: 'Comments', className: 'text-right' },
  { label: 'Joined', sort: 'createdAt' },
  { label: 'Last Login', sort: 'lastLoginAt' },
];

const STATUS_OPTIONS = USER_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }));
const VERIFIED_OPTIONS = [
  { value: 'true', label: 'Verified' },
  { value: 'false', label: 'Unverified' },
];
const ROLE_OPTIONS = FILTER_ROLES.map((role) => ({ value: role, label: roleLabel(role) }));

/** GET /admin/users for a list query (throws on failure). */
const listUsers = (query: UserListQuery) => unwrap(browserApi().GET('/api/v1/admin/users', { params: { query: userListApiQuery(query) } }));

/**
 * The user list of /admin/users (docs/requirements.md#screen-admin-users, docs/requirements.md#validation, docs/requirements.md#api-admin-users, docs/requirements.md#errors-user-admin, docs/requirements.md#constants-sorting): search (300 ms after typing),
 * status, verification and role filters, sortable columns (aria-sort), page size, the pager with
 * its jump box, and the Add User modal. The address is the state (components/islands/useUrlList): the server
 * renders the list for it, and every change here updates it (a new history entry, except while
 * typing or submitting the search), so Back, reload and shared links keep the view. Without
 * JavaScript the same controls are links and a GET form. A row opens the user's details.
 */
export default function AdminUsersManager({ initialQuery, initial, canAssignAdmin }: Props) {
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
  } = useUrlList<UserListQuery, AdminUserPage>({
    initialQuery,
    initialPage: initial.ok ? initial.data : null,
    initialError: initial.ok ? undefined : initial.message,
    hrefOf: userListHref,
    fetchPage: listUsers,
    queryFromLocation: () =>
      window.location.pathname === LIST_PATH ? userListQuery(new URLSearchParams(window.location.search)) : undefined,
    searchMax: 100,
    // The list's alert says it; no toast.
    failure: (failure) => ({ message: errorText(failure, USERS_LOAD_ERRORS) }),
    replaceSameAddress: true,
    submitHistory: 'replace',
    keepTypedSearch: true,
  });
  const [adding, setAdding] = useState(false);
  const queryRef = useRef(query);
  queryRef.current = query;
  const ids = useId();

  function onSelect(name: 'status' | 'isVerified' | 'role' | 'size') {
    return (event: ChangeEvent<HTMLSelectElement>) => {
      const value = event.target.value;
      const next: UserListQuery = { ...query, page: 0 };
      if (name === 'status') next.status = value as UserListQuery['status'];
      if (name === 'isVerified') next.isVerified = value as UserListQuery['isVerified'];
      if (name === 'role') next.role = value as UserListQuery['role'];
      if (name === 'size') next.size = Number(value);
      void load(next);
    };
  }

  function clearFilters() {
    setSearchText('');
    void load({ ...query, search: '', status: '', isVerified: '', role: '', page: 0 });
  }

  const openRow = (user: AdminUser) => (event: MouseEvent<HTMLTableRowElement>) => {
    if ((event.target as HTMLElement).closest('a, button, input, select')) return;
    window.location.assign(`${LIST_PATH}/${user.id}`);
  };

  const closeAdd = useCallback(() => setAdding(false), []);
  const created = useCallback(
    (user: AdminUser) => {
      notify('success', 'User created', user.email);
      void load(queryRef.current, 'none');
    },
    [load, notify],
  );

  // A failed read shows its alert instead of the list (and of the count).
  const page = error === undefined ? (data ?? undefined) : undefined;
  const searched = Boolean(failedQuery?.search);
  const keep = userListParams({ ...query, page: 0 });

  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-3xl font-bold">User Management</h1>
          <p className="mt-1 text-slate-600 dark:text-slate-400" data-testid="users-total">
            {page ? T.count(page.totalElements) : 'Manage accounts, roles and bans.'}
          </p>
        </div>
        <button type="button" className="btn-primary" onClick={() => setAdding(true)} disabled={!hydrated} aria-haspopup="dialog">
          <svg className="h-4 w-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
            <path d="M12 5v14M5 12h14" />
          </svg>
          Add User
        </button>
      </div>

      <AdminSearchForm
        label="Search and filter users"
        action={LIST_PATH}
        onSubmit={submitSearch}
        className="mt-6 xl:grid-cols-[2fr_1fr_1fr_1fr_auto_auto]"
        search={{
          id: `${ids}-search`,
          label: 'Search users',
          placeholder: 'Name or email',
          maxLength: 100,
          value: searchText,
          onChange: setSearchText,
        }}
      >
        <ListSelect
          id={`${ids}-status`}
          label="Status"
          name="status"
          value={query.status}
          options={STATUS_OPTIONS}
          allLabel="All statuses"
          onChange={onSelect('status')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-verified`}
          label="Verification"
          name="isVerified"
          value={query.isVerified}
          options={VERIFIED_OPTIONS}
          allLabel="All"
          onChange={onSelect('isVerified')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-role`}
          label="Role"
          name="role"
          value={query.role}
          options={ROLE_OPTIONS}
          allLabel="All roles"
          onChange={onSelect('role')}
          className={FILTER_CONTROL_CLASS}
        />
        <ListSelect
          id={`${ids}-size`}
          label="Per page"
          name="size"
          value={query.size}
          options={sizeOptions(USER_PAGE_SIZES)}
          onChange={onSelect('size')}
          className={FILTER_CONTROL_CLASS}
        />
        <div className="flex gap-2">
          {/* Sort survives a plain GET submit. */}
          {query.sortBy !== 'createdAt' || query.sortDir !== 'desc' ? (
            <>
              <input type="hidden" name="sortBy" value={query.sortBy} />
              <input type="hidden" name="sortDir" value={query.sortDir} />
            </>
          ) : null}
          <button type="submit" className="btn-secondary">
            Search
          </button>
          {hasFilters(query) && (
            <button type="button" className="btn-ghost" onClick={clearFilters} disabled={!hydrated}>
              Clear filters
            </button>
          )}
        </div>
      </AdminSearchForm>

      <p className="sr-only" aria-live="polite" data-testid="users-status">
        {loading ? 'Loading users…' : page ? `${T.count(page.totalElements)} found` : ''}
      </p>

      <AdminList
        className="mt-6"
        heading={{ id: `${ids}-heading`, text: 'Users', visible: false }}
        loading={loading}
        failure={
          error !== undefined
            ? {
                title: searched ? T.SEARCH_FAILED : T.LOAD_FAILED,
                message: error,
                retryHref: userListHref(query),
                onRetry: navigate(query, 'none'),
              }
            : undefined
        }
        failureLayout="panel"
        rowCount={page ? page.content.length : undefined}
        empty={{ title: T.EMPTY, message: hasFilters(query) ? T.EMPTY_FILTERED : undefined }}
        pager={{
          page: page?.number ?? 0,
          totalPages: page?.totalPages ?? 0,
          label: 'Users',
          hrefFor: (target) => userListHref({ ...query, page: target }),
          action: LIST_PATH,
          keep,
          onNavigate: hydrated ? (target) => void load({ ...query, page: target }) : undefined,
        }}
      >
        <AdminTable
          columns={COLUMNS}
          query={query}
          sortedBy={userSortedBy}
          hrefOf={userListHref}
          navigate={navigate}
          caption={`Users, sorted by ${COLUMNS.find((column) => column.sort === query.sortBy)?.label ?? query.sortBy}, ${query.sortDir === 'asc' ? 'ascending' : 'descending'}`}
          label="Users table"
          minWidthClass="min-w-[52rem]"
          loading={loading}
        >
          <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
            {(page?.content ?? []).map((user) => (
              <tr
                key={user.id}
                className="cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800/50"
                onClick={openRow(user)}
                data-user-row={user.id}
              >
                <td className={ADMIN_CELL}>
                  <span className="flex items-center gap-3">
                    <AvatarImage name={user.fullName} src={user.avatar} size="sm" />
                    {/* One line each, cut with an ellipsis (the whole in the tooltip): never a letter per line. */}
                    <span className="w-[12rem] min-w-0">
                      <a href={`${LIST_PATH}/${user.id}`} className="block truncate font-medium hover:underline" title={user.fullName}>
                        {user.fullName}
                      </a>
                      <span className="block truncate text-xs text-slate-600 dark:text-slate-400" title={user.email}>
                        <AdminEmail email={user.email} />
                      </span>
                    </span>
                  </span>
                </td>
                <td className={ADMIN_CELL}>
                  <AdminUserRoleBadges roles={user.roles} max={LIST_ROLE_BADGES} />
                </td>
                <td className={ADMIN_CELL}>
                  <AdminUserStatusBadge status={user.status} />
                </td>
                <td className={ADMIN_CELL}>
                  <AdminUserVerifiedBadge verified={user.isVerified} />
                </td>
                <td className={`${ADMIN_CELL} text-right tabular-nums`}>{user.totalPosts}</td>
                <td className={`${ADMIN_CELL} text-right tabular-nums`}>{user.totalComments}</td>
                <td className={`${ADMIN_CELL} whitespace-nowrap`}>
                  <time dateTime={user.createdAt ?? undefined} title={adminDateTime(user.createdAt)} suppressHydrationWarning>
                    {adminDate(user.createdAt)}
                  </time>
                </td>
                <td className={`${ADMIN_CELL} whitespace-nowrap`}>
                  {user.lastLoginAt ? (
                    <time dateTime={user.lastLoginAt} title={adminDateTime(user.lastLoginAt)} suppressHydrationWarning>
                      {adminDate(user.lastLoginAt)}
                    </time>
                  ) : (
                    <span className="text-slate-500 dark:text-slate-400">Never</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      </AdminList>

      {adding && <AdminUserAddDialog canAssignAdmin={canAssignAdmin} onClose={closeAdd} onCreated={created} />}
      <NoticeStack notices={notices} onDismiss={dismiss} />
    </div>
  );
}
