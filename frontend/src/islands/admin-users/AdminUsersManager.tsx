import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import {
  adminDate,
  adminDateTime,
  FILTER_ROLES,
  hasFilters,
  USER_PAGE_SIZES,
  USER_STATUSES,
  userListApiQuery,
  userListQuery,
  userListSearch,
  type AdminUser,
  type AdminUserPage,
  type UserListQuery,
  type UserSortField,
} from '../../lib/admin-users';
import { unwrap } from '../../lib/api/errors';
import { roleLabel } from '../../lib/roles';
import { sessionApi } from '../../lib/session-browser';
import { AdminUsersTexts as T, STATUS_LABELS, usersLoadMessage } from '../../lib/texts/admin-users';
import { NoticeStack, useNotices } from '../shared/AdminDialog';
import AdminPager from '../shared/AdminPager';
import { AvatarImage, useHydrated } from '../shared/form-controls';
import AdminUserAddDialog from './AdminUserAddDialog';
import { AdminUserRoleBadges, AdminUserStatusBadge, AdminUserVerifiedBadge } from './AdminUserBadges';

/** spec 001 §9: search debounce 300 ms; role badges: up to 3 in the list. */
export const SEARCH_DEBOUNCE_MS = 300;
const LIST_ROLE_BADGES = 3;
const LIST_PATH = '/admin/users';

export type UsersLoad = { ok: true; data: AdminUserPage } | { ok: false; message: string; searched: boolean };

interface Props {
  initialQuery: UserListQuery;
  initial: UsersLoad;
  canAssignAdmin: boolean;
}

interface Column {
  label: string;
  sort?: UserSortField;
  className?: string;
}
const COLUMNS: Column[] = [
  { label: 'User', sort: 'fullName' },
  { label: 'Roles' },
  { label: 'Status' },
  { label: 'Verified' },
  { label: 'Posts', className: 'text-right' },
  { label: 'Comments', className: 'text-right' },
  { label: 'Joined', sort: 'createdAt' },
  { label: 'Last Login', sort: 'lastLoginAt' },
];

const SELECT = 'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950';

/**
 * The user list of /admin/users (spec 001 §2, §5, §7, §8, §9): search (300 ms after typing),
 * status, verification and role filters, sortable columns (aria-sort), page size, the pager with
 * its jump box, and the Add User modal. The address is the state: the server renders the list
 * for it, and every change here updates it (a new history entry, except while typing), so Back,
 * reload and shared links keep the view. Without JavaScript the same controls are links and a
 * GET form. A row opens the user's details.
 */
export default function AdminUsersManager({ initialQuery, initial, canAssignAdmin }: Props) {
  const [query, setQuery] = useState(initialQuery);
  const [searchText, setSearchText] = useState(initialQuery.search);
  const [result, setResult] = useState<UsersLoad>(initial);
  const [loading, setLoading] = useState(false);
  const [adding, setAdding] = useState(false);
  const { notices, notify, dismiss } = useNotices();
  const hydrated = useHydrated();
  const sequence = useRef(0);
  const queryRef = useRef(query);
  queryRef.current = query;
  const ids = { search: useId(), status: useId(), verified: useId(), role: useId(), size: useId() };

  const load = useCallback(async (next: UserListQuery, history: 'push' | 'replace' | 'none' = 'push') => {
    const id = ++sequence.current;
    setQuery(next);
    setLoading(true);
    const address = `${LIST_PATH}${userListSearch(next)}`;
    if (history === 'push' && address !== `${location.pathname}${location.search}`) window.history.pushState(null, '', address);
    else if (history !== 'none') window.history.replaceState(null, '', address);
    try {
      const data = (await unwrap(sessionApi().GET('/api/v1/admin/users', { params: { query: userListApiQuery(next) } }))) as AdminUserPage;
      if (id !== sequence.current) return;
      // A page past the end (rows went away, an old link): the last page instead.
      if (data.totalPages > 0 && next.page >= data.totalPages) {
        void load({ ...next, page: data.totalPages - 1 }, 'replace');
        return;
      }
      setResult({ ok: true, data });
    } catch (error) {
      if (id !== sequence.current) return;
      setResult({ ok: false, message: usersLoadMessage(error), searched: Boolean(next.search) });
    } finally {
      if (id === sequence.current) setLoading(false);
    }
  }, []);

  // Back and Forward between list states.
  useEffect(() => {
    const onPop = () => {
      if (location.pathname !== LIST_PATH) return;
      const next = userListQuery(new URLSearchParams(location.search));
      setSearchText(next.search);
      void load(next, 'none');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [load]);

  // The search box applies itself 300 ms after the last keystroke.
  useEffect(() => {
    const term = searchText.trim();
    if (term === queryRef.current.search) return;
    const timer = window.setTimeout(() => void load({ ...queryRef.current, search: term, page: 0 }, 'replace'), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [searchText, load]);

  const change = (values: Partial<UserListQuery>) => void load({ ...query, ...values, page: 0 });

  function submitSearch(event: FormEvent) {
    event.preventDefault();
    void load({ ...query, search: searchText.trim(), page: 0 }, 'replace');
  }

  function clearFilters() {
    setSearchText('');
    void load({ ...query, search: '', status: '', isVerified: '', role: '', page: 0 });
  }

  const sortHref = (field: UserSortField) => {
    const dir = query.sortBy === field && query.sortDir === 'asc' ? 'desc' : query.sortBy === field ? 'asc' : field === 'createdAt' || field === 'lastLoginAt' ? 'desc' : 'asc';
    return { href: `${LIST_PATH}${userListSearch({ ...query, sortBy: field, sortDir: dir, page: 0 })}`, dir } as const;
  };
  const follow = (handler: () => void) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    handler();
  };

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

  const page = result.ok ? result.data : undefined;
  const keep = Object.fromEntries(new URLSearchParams(userListSearch({ ...query, page: 0 })));

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

      <form method="get" action={LIST_PATH} role="search" aria-label="Search and filter users" className="card mt-6 grid gap-4 p-4 md:grid-cols-2 xl:grid-cols-[2fr_1fr_1fr_1fr_auto_auto] xl:items-end" onSubmit={submitSearch}>
        <div>
          <label htmlFor={ids.search} className="mb-1 block text-sm font-medium">
            Search users
          </label>
          <input
            id={ids.search}
            type="search"
            name="search"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
            placeholder="Name or email"
            maxLength={100}
            className={SELECT}
          />
        </div>
        <div>
          <label htmlFor={ids.status} className="mb-1 block text-sm font-medium">
            Status
          </label>
          <select id={ids.status} name="status" value={query.status} onChange={(event) => change({ status: event.target.value as UserListQuery['status'] })} className={SELECT}>
            <option value="">All statuses</option>
            {USER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.verified} className="mb-1 block text-sm font-medium">
            Verification
          </label>
          <select id={ids.verified} name="isVerified" value={query.isVerified} onChange={(event) => change({ isVerified: event.target.value as UserListQuery['isVerified'] })} className={SELECT}>
            <option value="">All</option>
            <option value="true">Verified</option>
            <option value="false">Unverified</option>
          </select>
        </div>
        <div>
          <label htmlFor={ids.role} className="mb-1 block text-sm font-medium">
            Role
          </label>
          <select id={ids.role} name="role" value={query.role} onChange={(event) => change({ role: event.target.value as UserListQuery['role'] })} className={SELECT}>
            <option value="">All roles</option>
            {FILTER_ROLES.map((role) => (
              <option key={role} value={role}>
                {roleLabel(role)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={ids.size} className="mb-1 block text-sm font-medium">
            Per page
          </label>
          <select id={ids.size} name="size" value={query.size} onChange={(event) => change({ size: Number(event.target.value) })} className={SELECT}>
            {USER_PAGE_SIZES.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </div>
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
      </form>

      <p className="sr-only" aria-live="polite" data-testid="users-status">
        {loading ? 'Loading users…' : page ? `${T.count(page.totalElements)} found` : ''}
      </p>

      <section className="mt-6" aria-label="Users" aria-busy={loading}>
        {!result.ok ? (
          <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-8 text-center text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200">
            <p className="text-lg font-semibold">{result.searched ? T.SEARCH_FAILED : T.LOAD_FAILED}</p>
            <p className="mt-1 opacity-90">{result.message}</p>
            <a href={`${LIST_PATH}${userListSearch(query)}`} className="btn-secondary mt-4" onClick={follow(() => void load(query, 'none'))}>
              Try Again
            </a>
          </div>
        ) : page && page.content.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center dark:border-slate-700">
            <p className="text-lg font-semibold">{T.EMPTY}</p>
            {hasFilters(query) && <p className="mt-1 text-slate-600 dark:text-slate-400">{T.EMPTY_FILTERED}</p>}
          </div>
        ) : page ? (
          <>
            <div className={`card overflow-x-auto transition-opacity ${loading ? 'opacity-60' : ''}`}>
              <table className="w-full min-w-[52rem] text-left text-sm">
                <caption className="sr-only">
                  Users, sorted by {COLUMNS.find((column) => column.sort === query.sortBy)?.label ?? query.sortBy}, {query.sortDir === 'asc' ? 'ascending' : 'descending'}
                </caption>
                <thead className="border-b border-slate-200 bg-slate-50 text-xs uppercase tracking-wide text-slate-600 dark:border-slate-800 dark:bg-slate-950 dark:text-slate-400">
                  <tr>
                    {COLUMNS.map((column) => {
                      const sorted = column.sort && query.sortBy === column.sort;
                      const sort = column.sort ? sortHref(column.sort) : undefined;
                      return (
                        <th
                          key={column.label}
                          scope="col"
                          className={`px-4 py-3 font-semibold ${column.className ?? ''}`}
                          aria-sort={sorted ? (query.sortDir === 'asc' ? 'ascending' : 'descending') : column.sort ? 'none' : undefined}
                        >
                          {sort && column.sort ? (
                            <a href={sort.href} className="inline-flex items-center gap-1 hover:text-slate-900 dark:hover:text-white" onClick={follow(() => void load({ ...query, sortBy: column.sort!, sortDir: sort.dir, page: 0 }))}>
                              {column.label}
                              <span aria-hidden="true">{sorted ? (query.sortDir === 'asc' ? '▲' : '▼') : '↕'}</span>
                            </a>
                          ) : (
                            column.label
                          )}
                        </th>
                      );
                    })}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
                  {page.content.map((user) => (
                    <tr key={user.id} className="cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800/50" onClick={openRow(user)} data-user-row={user.id}>
                      <td className="px-4 py-3">
                        <span className="flex items-center gap-3">
                          <AvatarImage name={user.fullName} src={user.avatar} size="sm" />
                          <span className="min-w-0">
                            <a href={`${LIST_PATH}/${user.id}`} className="block font-medium hover:underline">
                              {user.fullName}
                            </a>
                            <span className="block break-all text-xs text-slate-600 dark:text-slate-400">{user.email}</span>
                          </span>
                        </span>
                      </td>
                      <td className="px-4 py-3">
                        <AdminUserRoleBadges roles={user.roles} max={LIST_ROLE_BADGES} />
                      </td>
                      <td className="px-4 py-3">
                        <AdminUserStatusBadge status={user.status} />
                      </td>
                      <td className="px-4 py-3">
                        <AdminUserVerifiedBadge verified={user.isVerified} />
                      </td>
                      <td className="px-4 py-3 text-right tabular-nums">{user.totalPosts}</td>
                      <td className="px-4 py-3 text-right tabular-nums">{user.totalComments}</td>
                      <td className="whitespace-nowrap px-4 py-3">
                        <time dateTime={user.createdAt ?? undefined} title={adminDateTime(user.createdAt)} suppressHydrationWarning>
                          {adminDate(user.createdAt)}
                        </time>
                      </td>
                      <td className="whitespace-nowrap px-4 py-3">
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
              </table>
            </div>
            <AdminPager
              page={page.number}
              totalPages={page.totalPages}
              label="Users"
              hrefFor={(target) => `${LIST_PATH}${userListSearch({ ...query, page: target })}`}
              action={LIST_PATH}
              keep={keep}
              onNavigate={hydrated ? (target) => void load({ ...query, page: target }) : undefined}
            />
          </>
        ) : null}
      </section>

      {adding && <AdminUserAddDialog canAssignAdmin={canAssignAdmin} onClose={closeAdd} onCreated={created} />}
      <NoticeStack notices={notices} onDismiss={dismiss} />
    </div>
  );
}
