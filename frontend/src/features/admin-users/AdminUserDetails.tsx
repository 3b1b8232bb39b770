import { useCallback, useState, type MouseEvent, type ReactNode } from 'react';
import { browserApi } from '../../lib/api/client';
import { adminDateTime, adminRelativeTime, AUDIT_PAGE_SIZE, type AdminUser, type AuditEntryPage, type BanStatus } from './admin-users';
import type { FetchResult, Unwrapped } from '../../lib/api/errors';
import { roleLabel } from '../../lib/roles';
import { load } from '../../lib/settle';
import { AdminUsersTexts, MuteTexts, STATUS_LABELS, USERS_LOAD_ERRORS, UserActionTexts, type UserStatus } from './texts';
import { AdminUserMuteDialog, AdminUserUnmuteDialog, muteEnd } from './AdminUserMuteDialog';
import { errorText } from '../../lib/texts/error-text';
import { NoticeStack, useNotices } from '../../components/islands/notices';
import Pager from '../../components/islands/Pager';
import { pageHref } from '../../lib/paging';
import { AvatarImage, useHydrated } from '../../components/islands/form-controls';
import { AdminUserBanDialog, AdminUserEditDialog, AdminUserPasswordDialog } from './AdminUserActionDialogs';
import { AdminUserRoleBadges, AdminUserStatusBadge, AdminUserVerifiedBadge } from './AdminUserBadges';
import { formatDate } from '../../lib/dates';
import { AdminEmail } from '../../components/islands/AdminEmail';
import { AdminUserTwoFactorReset } from './AdminUserTwoFactorReset';
import { TwoFactorResetTexts } from './texts';
import { AdminUserDeleteDialog } from './AdminUserDeleteDialog';

/** docs/requirements.md#role-badges: up to 10 role badges in details. */
const DETAIL_ROLE_BADGES = 10;
const LIST_PATH = '/admin/users';

export type Settled<T> = { ok: true; data: T } | { ok: false; message: string };

interface Props {
  initialUser: AdminUser;
  /** Ban details, read when the user is BANNED (else undefined). */
  initialBan?: Settled<BanStatus>;
  initialAudit: Settled<AuditEntryPage>;
  canAssignAdmin: boolean;
}

type Dialog = 'edit' | 'ban' | 'unban' | 'password' | 'mute' | 'unmute' | 'delete';

/** A read in the browser, settled: the envelope's data typed by the operation, or the failure's text. */
async function settle<R extends FetchResult>(call: Promise<R>): Promise<Settled<Unwrapped<R>>> {
  const loaded = await load(call);
  return loaded.ok ? loaded : { ok: false, message: errorText(loaded.error, USERS_LOAD_ERRORS) };
}

/**
 * A user's details (docs/requirements.md#screen-admin-users: the details view with a back button): identity,
 * role badges (up to 10), status and verification, the account's dates and counts, ban details
 * for a banned user, the user's audit trail (paged), and the actions: Edit (name, roles, status),
 * Generate Password (shown once, with Copy), Ban and Unban (a reason is required). After an
 * action the user, the ban details and the trail are read again.
 */
export default function AdminUserDetails({ initialUser, initialBan, initialAudit, canAssignAdmin }: Props) {
  const [user, setUser] = useState(initialUser);
  const [ban, setBan] = useState(initialBan);
  const [audit, setAudit] = useState(initialAudit);
  const [auditLoading, setAuditLoading] = useState(false);
  const [dialog, setDialog] = useState<Dialog>();
  // The actions open dialogs: until the island is live a click would do nothing, so they wait for it.
  const hydrated = useHydrated();
  const { notices, notify, dismiss } = useNotices();
  const api = browserApi();

  const loadAudit = useCallback(
    async (page: number) => {
      setAuditLoading(true);
      const next = await settle(
        api.GET('/api/v1/admin/users/{id}/audit-log', { params: { path: { id: initialUser.id }, query: { page, size: AUDIT_PAGE_SIZE } } }),
      );
      setAudit(next);
      setAuditLoading(false);
      window.history.replaceState(null, '', pageHref(location.href, page));
    },
    [api, initialUser.id],
  );

  const reload = useCallback(async () => {
    const fresh = await settle(api.GET('/api/v1/admin/users/{id}', { params: { path: { id: initialUser.id } } }));
    if (fresh.ok) {
      setUser(fresh.data);
      setBan(
        fresh.data.status === 'BANNED'
          ? await settle(api.GET('/api/v1/admin/users/{id}/ban-status', { params: { path: { id: initialUser.id } } }))
          : undefined,
      );
    } else notify('error', AdminUsersTexts.DETAILS_FAILED, fresh.message);
    await loadAudit(0);
  }, [api, initialUser.id, loadAudit, notify]);

  const close = useCallback(() => setDialog(undefined), []);
  const done = (message: string) => () => {
    setDialog(undefined);
    notify('success', message);
    void reload();
  };

  function back(event: MouseEvent<HTMLAnchorElement>) {
    // Back to the list as it was (search, filters, page) when that is where the admin came from.
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    const from = document.referrer ? new URL(document.referrer) : undefined;
    if (from && from.origin === location.origin && from.pathname === LIST_PATH && history.length > 1) {
      event.preventDefault();
      history.back();
    }
  }

  const status = user.status as UserStatus;
  const muted = user.mutedForever || Boolean(user.mutedUntil);
  return (
    <div>
      <a href={LIST_PATH} className="btn-ghost -ml-3" onClick={back}>
        <svg className="h-4 w-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <path d="M15 18l-6-6 6-6" />
        </svg>
        Back to Users
      </a>

      <section className="card mt-4 p-6" aria-labelledby="user-name">
        <div className="flex flex-wrap items-start justify-between gap-6">
          <div className="flex min-w-0 items-center gap-4">
            <AvatarImage name={user.fullName} src={user.avatar} size="lg" />
            <div className="min-w-0">
              <h1 id="user-name" className="font-serif text-2xl font-bold break-words">
                {user.fullName}
              </h1>
              <p className="break-all text-slate-600 dark:text-slate-400">
                <AdminEmail email={user.email} />
              </p>
              <div className="mt-2 flex flex-wrap items-center gap-2" data-testid="user-badges">
                <AdminUserRoleBadges roles={user.roles} max={DETAIL_ROLE_BADGES} />
                <AdminUserStatusBadge status={user.status} />
                <AdminUserVerifiedBadge verified={user.isVerified} />
              </div>
            </div>
          </div>
          <div className="flex flex-wrap gap-2">
            <button type="button" className="btn-secondary" onClick={() => setDialog('edit')} disabled={!hydrated} aria-haspopup="dialog">
              Edit
            </button>
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setDialog('password')}
              disabled={!hydrated}
              aria-haspopup="dialog"
            >
              Generate Password
            </button>
            {user.twoFactorEnabled && (
              <AdminUserTwoFactorReset user={user} disabled={!hydrated} onReset={done(TwoFactorResetTexts.DONE(user.fullName))} />
            )}
            <button
              type="button"
              className="btn-secondary text-red-700 dark:text-red-400"
              onClick={() => setDialog('delete')}
              disabled={!hydrated}
              aria-haspopup="dialog"
              data-delete-user
            >
              Delete user
            </button>
            {muted ? (
              <button
                type="button"
                className="btn-secondary"
                onClick={() => setDialog('unmute')}
                disabled={!hydrated}
                aria-haspopup="dialog"
              >
                Unmute
              </button>
            ) : (
              <button type="button" className="btn-secondary" onClick={() => setDialog('mute')} disabled={!hydrated} aria-haspopup="dialog">
                Mute
              </button>
            )}
            {status === 'BANNED' ? (
              <button type="button" className="btn-primary" onClick={() => setDialog('unban')} disabled={!hydrated} aria-haspopup="dialog">
                Unban User
              </button>
            ) : (
              <button
                type="button"
                className="btn bg-red-600 text-white hover:bg-red-700"
                onClick={() => setDialog('ban')}
                disabled={!hydrated}
                aria-haspopup="dialog"
              >
                Ban User
              </button>
            )}
          </div>
        </div>
      </section>

      {status === 'BANNED' && ban && (
        <section
          className="mt-6 rounded-xl border border-red-200 bg-red-50 p-6 text-red-900 dark:border-red-900 dark:bg-red-950/50 dark:text-red-100"
          aria-labelledby="ban-heading"
          data-testid="ban-details"
        >
          <h2 id="ban-heading" className="text-lg font-semibold">
            Ban Details
          </h2>
          {ban.ok ? (
            <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-2">
              <Detail label="Reason">{ban.data.banReason || '—'}</Detail>
              <Detail label="Banned at">{ban.data.bannedAt ? <When value={ban.data.bannedAt} /> : '—'}</Detail>
              <Detail label="Banned by">{ban.data.bannedBy || '—'}</Detail>
              <Detail label="Admin note">{ban.data.adminNote || '—'}</Detail>
            </dl>
          ) : (
            <p className="mt-2 text-sm" role="alert">
              {ban.message}
            </p>
          )}
        </section>
      )}

      {muted && (
        <section
          className="mt-6 rounded-xl border border-amber-300 bg-amber-50 p-6 text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100"
          aria-labelledby="mute-heading"
          data-testid="mute-details"
        >
          <h2 id="mute-heading" className="text-lg font-semibold">
            Commenting muted {muteEnd(user)}
          </h2>
          <p className="mt-1 break-words text-sm">Reason: {user.muteReason || '—'}</p>
        </section>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-5">
        <section className="card p-6 lg:col-span-2" aria-labelledby="account-heading">
          <h2 id="account-heading" className="text-lg font-semibold">
            Account
          </h2>
          <dl className="mt-4 space-y-3 text-sm">
            <Detail label="User ID">{user.id}</Detail>
            <Detail label="Status">{STATUS_LABELS[status] ?? user.status}</Detail>
            <Detail label="Email">
              {user.isVerified ? (
                <>
                  Verified
                  {user.emailVerifiedAt && (
                    <>
                      {' '}
                      on <When value={user.emailVerifiedAt} format={formatDate} />
                    </>
                  )}
                </>
              ) : (
                'Not verified'
              )}
            </Detail>
            <Detail label="Joined">{user.createdAt ? <When value={user.createdAt} /> : '—'}</Detail>
            <Detail label="Last login">{user.lastLoginAt ? <When value={user.lastLoginAt} /> : 'Never'}</Detail>
            <Detail label="Last updated">{user.updatedAt ? <When value={user.updatedAt} /> : '—'}</Detail>
            <Detail label="Posts">{user.totalPosts}</Detail>
            <Detail label="Comments">{user.totalComments}</Detail>
          </dl>
          {user.bio && (
            <>
              <h3 className="mt-5 text-sm font-semibold">About</h3>
              <p className="mt-1 whitespace-pre-line break-words text-sm text-slate-700 dark:text-slate-300">{user.bio}</p>
            </>
          )}
          <h3 className="mt-5 text-sm font-semibold">Roles</h3>
          <ul className="mt-2 space-y-2 text-sm" data-testid="role-list">
            {(user.roles.length > 0 ? user.roles : [{ name: 'USER', displayName: 'User', description: null, assignedAt: null }]).map(
              (role) => (
                <li key={role.name}>
                  <span className="font-medium">{role.displayName || roleLabel(role.name)}</span>
                  {role.assignedAt && (
                    <span className="text-slate-600 dark:text-slate-400">
                      {' '}
                      — assigned <When value={role.assignedAt} format={formatDate} />
                    </span>
                  )}
                  {role.description && <span className="block text-xs text-slate-600 dark:text-slate-400">{role.description}</span>}
                </li>
              ),
            )}
          </ul>
        </section>

        <section className="card p-6 lg:col-span-3" aria-labelledby="history-heading" aria-busy={auditLoading}>
          <h2 id="history-heading" className="text-lg font-semibold">
            Activity History
          </h2>
          {!audit.ok ? (
            <div
              role="alert"
              className="mt-4 rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-800 dark:border-red-900 dark:bg-red-950/50 dark:text-red-200"
            >
              <p className="font-semibold">{AdminUsersTexts.AUDIT_FAILED}</p>
              <p className="mt-1">{audit.message}</p>
              <button type="button" className="btn-secondary mt-3" onClick={() => void loadAudit(0)}>
                Try Again
              </button>
            </div>
          ) : audit.data.content.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{AdminUsersTexts.AUDIT_EMPTY}</p>
          ) : (
            <>
              <ol
                className={`mt-4 divide-y divide-slate-200 dark:divide-slate-800 ${auditLoading ? 'opacity-60' : ''}`}
                data-testid="audit-trail"
              >
                {audit.data.content.map((entry) => (
                  <li key={entry.id} className="flex items-start justify-between gap-4 py-3 first:pt-0 last:pb-0" data-audit={entry.type}>
                    <div className="min-w-0">
                      <p className="font-medium">
                        {entry.link && entry.link !== `${LIST_PATH}?userId=${user.id}` ? (
                          <a href={entry.link} className="hover:underline">
                            {entry.title}
                          </a>
                        ) : (
                          entry.title
                        )}
                      </p>
                      {entry.description && (
                        <p className="mt-0.5 break-words text-sm text-slate-600 dark:text-slate-400">{entry.description}</p>
                      )}
                      <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
                        {entry.actor ? `by ${entry.actor.fullName}` : 'by the system'}
                      </p>
                    </div>
                    <time
                      className="shrink-0 text-xs text-slate-600 dark:text-slate-400"
                      dateTime={entry.timestamp}
                      title={adminDateTime(entry.timestamp)}
                      suppressHydrationWarning
                    >
                      {adminRelativeTime(entry.timestamp)}
                    </time>
                  </li>
                ))}
              </ol>
              <Pager
                page={audit.data.number}
                totalPages={audit.data.totalPages}
                label="Activity history"
                hrefFor={(page) => `${LIST_PATH}/${user.id}${page > 0 ? `?page=${page + 1}` : ''}`}
                action={`${LIST_PATH}/${user.id}`}
                onNavigate={(page) => void loadAudit(page)}
              />
            </>
          )}
        </section>
      </div>

      {dialog === 'edit' && (
        <AdminUserEditDialog user={user} canAssignAdmin={canAssignAdmin} onCancel={close} onSaved={done(UserActionTexts.UPDATED)} />
      )}
      {(dialog === 'ban' || dialog === 'unban') && (
        <AdminUserBanDialog
          mode={dialog}
          user={user}
          onCancel={close}
          onDone={done(dialog === 'ban' ? UserActionTexts.BANNED(user.fullName) : UserActionTexts.UNBANNED(user.fullName))}
        />
      )}
      {dialog === 'mute' && <AdminUserMuteDialog user={user} onCancel={close} onDone={done(MuteTexts.MUTED(user.fullName))} />}
      {dialog === 'unmute' && <AdminUserUnmuteDialog user={user} onCancel={close} onDone={done(MuteTexts.UNMUTED(user.fullName))} />}
      {dialog === 'delete' && (
        <AdminUserDeleteDialog
          user={user}
          onCancel={close}
          onDeleted={(message) => {
            // No reload: the account is being erased (its details answer 404 once it is gone).
            setDialog(undefined);
            notify('success', message);
          }}
        />
      )}
      {dialog === 'password' && <AdminUserPasswordDialog user={user} onClose={close} onGenerated={() => void loadAudit(0)} />}
      <NoticeStack notices={notices} onDismiss={dismiss} />
    </div>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      {/* The label keeps its words whole ('Ema/il' at 320 px): it wraps between them, the value beside it gives way. */}
      <dt className="wrap-break-word text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium">{children}</dd>
    </div>
  );
}

/**
 * A date in the admin's own time zone and locale format (en-US): the server renders it in its
 * zone, the browser may differ, so the text is allowed to change on hydration.
 */
function When({ value, format = adminDateTime }: { value: string; format?: (value: string) => string }) {
  return (
    <time dateTime={value} suppressHydrationWarning>
      {format(value)}
    </time>
  );
}
