/**
 * The back-office's user administration and dashboard data (docs/requirements.md#screen-admin-dashboard and
 * 'Admin users', docs/requirements.md#data-admin-user, docs/requirements.md#validation, docs/requirements.md#api-admin-users 'User administration' and 'Dashboards', docs/requirements.md#constants): the API's answers
 * (generated types), the reads pages make through the session (`Astro.locals.api`) settled to
 * Loaded, the list's query (shared by the page and its island: the address is the state), the
 * Add User rules and the mapping of its server messages, and the small formatters the admin
 * screens use (en-US dates, percentages of total users).
 */
import {
  listApiQuery,
  listHref,
  listQueryFrom,
  listQueryParams,
  type BaseListQuery,
  type ListQuerySpec,
  type SortDir,
} from '../../lib/admin-list';
import type { ApiClient } from '../../lib/api/client';
import { ApiError } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';
import type { RoleName } from '../../lib/roles';
import { load } from '../../lib/settle';
import { AddUserTexts, USER_STATUSES, type UserStatus } from './texts';
import { formatUtcDay, relativeTime } from '../../lib/dates';
import { charCount, hasInvisible, trimInvisible } from '../../../../isomorphic/text';
import { isMixedScriptEmail } from '../../lib/field-rules';
import type { DataOf } from '../../lib/api/schema';

// ---- the API's answers (generated from openapi.json) ---------------------------------------

type Schemas = components['schemas'];
export type AdminUser = DataOf<'/api/v1/admin/users/{id}'>;
export type AdminUserPage = DataOf<'/api/v1/admin/users'>;
export type AdminUserRole = AdminUser['roles'][number];
export type BanStatus = DataOf<'/api/v1/admin/users/{id}/ban-status'>;
export type AuditEntryPage = DataOf<'/api/v1/admin/users/{id}/audit-log'>;
export type AuditEntry = AuditEntryPage['content'][number];
export type AdminStats = DataOf<'/api/v1/dashboard/admin/stats'>;
export type AdminActivity = DataOf<'/api/v1/dashboard/admin/activity'>;
export type ActivityDay = AdminActivity['days'][number];
export type GeneratedPassword = Schemas['AdminGeneratedPasswordDto'];

/** One 'Recent Activity' entry (docs/requirements.md#activity-types: type, title, description, timestamp, optional link). */
export type RecentActivity = AdminStats['recentActivities'][number];

export { USER_STATUSES, type UserStatus };

// ---- reads ------------------------------------------------------------------------------------

/** The 30 days the dashboard's chart shows. */
export const ACTIVITY_DAYS = 30;
/** The audit trail's page size on the details view. */
export const AUDIT_PAGE_SIZE = 10;

/** The reads the admin pages make through the session, each settled to Loaded. */
export const adminApi = (api: ApiClient) => ({
  stats: () => load(api.GET('/api/v1/dashboard/admin/stats', {})),
  activity: (days = ACTIVITY_DAYS) => load(api.GET('/api/v1/dashboard/admin/activity', { params: { query: { days } } })),
  users: (query: UserListQuery) => load(api.GET('/api/v1/admin/users', { params: { query: userListApiQuery(query) } })),
  user: (id: number) => load(api.GET('/api/v1/admin/users/{id}', { params: { path: { id } } })),
  banStatus: (id: number) => load(api.GET('/api/v1/admin/users/{id}/ban-status', { params: { path: { id } } })),
  auditLog: (id: number, page: number, size = AUDIT_PAGE_SIZE) =>
    load(api.GET('/api/v1/admin/users/{id}/audit-log', { params: { path: { id }, query: { page, size } } })),
});

// ---- the list's query (the address is the state; read and written as lib/admin-list does) --------

/** The sort fields GET /admin/users takes. */
export const USER_SORT_FIELDS = ['createdAt', 'updatedAt', 'fullName', 'email', 'lastLoginAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export type { SortDir };
export const USER_PAGE_SIZES = [5, 10, 20, 50] as const;
/** docs/requirements.md#constants-sorting: default page size 10; user lists sort by createdAt descending. */
export const DEFAULT_USER_QUERY = {
  page: 0,
  size: 10,
  sortBy: 'createdAt',
  sortDir: 'desc',
  search: '',
  status: '',
  isVerified: '',
  role: '',
} as const satisfies UserListQuery;
export const FILTER_ROLES: readonly RoleName[] = ['USER', 'AUTHOR', 'ADMIN'];
export const USERS_PATH = '/admin/users';

export interface UserListQuery extends BaseListQuery<UserSortField> {
  status: UserStatus | '';
  isVerified: '' | 'true' | 'false';
  role: RoleName | '';
}

const USER_LIST_SPEC: ListQuerySpec<UserSortField> = {
  sizes: USER_PAGE_SIZES,
  sortFields: USER_SORT_FIELDS.map((value) => ({ value })),
  defaults: { size: DEFAULT_USER_QUERY.size, sortBy: DEFAULT_USER_QUERY.sortBy, sortDir: DEFAULT_USER_QUERY.sortDir },
  searchMax: 100,
};

const oneOf = <T extends string>(value: string | null, options: readonly T[]): T | '' =>
  value && (options as readonly string[]).includes(value) ? (value as T) : '';

/** The list's query from the address (`?page` 1-based); anything unknown takes the default. */
export function userListQuery(params: URLSearchParams): UserListQuery {
  return {
    ...listQueryFrom(params, USER_LIST_SPEC),
    status: oneOf(params.get('status'), USER_STATUSES),
    isVerified: oneOf(params.get('isVerified'), ['true', 'false'] as const),
    role: oneOf(params.get('role'), FILTER_ROLES),
  };
}

/**
 * The values the address keeps for a list query: search, status, isVerified, role, then sortBy
 * and sortDir together when either is not the default, size and the 1-based page, defaults left out.
 */
export function userListParams(query: UserListQuery): Record<string, string> {
  return listQueryParams(
    query,
    USER_LIST_SPEC.defaults,
    { status: query.status || undefined, isVerified: query.isVerified || undefined, role: query.role || undefined },
    { sortPair: true },
  );
}

/** The address's query for a list query ('' for the defaults). */
export function userListSearch(query: UserListQuery): string {
  return listHref('', userListParams(query));
}

/** The list's address for a query. */
export function userListHref(query: UserListQuery): string {
  return listHref(USERS_PATH, userListParams(query));
}

/** A column header's sort link: the current field flips its direction; another starts descending for dates, else ascending. */
export function userSortedBy(query: UserListQuery, field: UserSortField): UserListQuery {
  const sortDir: SortDir =
    query.sortBy === field ? (query.sortDir === 'asc' ? 'desc' : 'asc') : field === 'createdAt' || field === 'lastLoginAt' ? 'desc' : 'asc';
  return { ...query, sortBy: field, sortDir, page: 0 };
}

/** GET /admin/users's query: zero-based page, only the filters that are set. */
export function userListApiQuery(query: UserListQuery) {
  return {
    ...listApiQuery(query),
    ...(query.status ? { status: query.status } : {}),
    ...(query.isVerified ? { isVerified: query.isVerified === 'true' } : {}),
    ...(query.role ? { role: query.role } : {}),
  };
}

export function hasFilters(query: UserListQuery): boolean {
  return Boolean(query.search || query.status || query.isVerified || query.role);
}

// ---- Add User (docs/requirements.md#validation-add-user, docs/requirements.md#errors-add-user) -----------------------------------------------------------

export interface AddUserValues {
  fullName: string;
  email: string;
  password: string;
  confirmPassword: string;
  roles: RoleName[];
  status: UserStatus | '';
  markEmailAsVerified: boolean;
}
export type AddUserField = 'fullName' | 'email' | 'password' | 'confirmPassword' | 'roles' | 'status';
export type AddUserErrors = Partial<Record<AddUserField, string>>;

/** docs/requirements.md#validation-add-user: roles [USER], status ACTIVE, the e-mail not pre-verified. */
export const ADD_USER_DEFAULTS: AddUserValues = {
  fullName: '',
  email: '',
  password: '',
  confirmPassword: '',
  roles: ['USER'],
  status: 'ACTIVE',
  markEmailAsVerified: false,
};
export const ADD_USER_FIELDS: readonly AddUserField[] = ['fullName', 'email', 'password', 'confirmPassword', 'roles', 'status'];
/** "A simple email pattern". */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const ADD_USER_PASSWORD_MIN = 6;

/** The form's rules in the spec's order; one message per field (its first failing rule). */
export function addUserErrors(values: AddUserValues): AddUserErrors {
  const errors: AddUserErrors = {};
  if (!trimInvisible(values.fullName)) errors.fullName = AddUserTexts.FULL_NAME_REQUIRED;
  const email = values.email.trim();
  if (!email) errors.email = AddUserTexts.EMAIL_REQUIRED;
  else if (!EMAIL.test(email) || hasInvisible(email)) errors.email = AddUserTexts.EMAIL_INVALID;
  else if (isMixedScriptEmail(email)) errors.email = AddUserTexts.EMAIL_MIXED_SCRIPTS;
  if (!values.password) errors.password = AddUserTexts.PASSWORD_REQUIRED;
  else if (charCount(values.password) < ADD_USER_PASSWORD_MIN) errors.password = AddUserTexts.PASSWORD_MIN;
  if (values.password !== values.confirmPassword) errors.confirmPassword = AddUserTexts.PASSWORDS_MISMATCH;
  if (values.roles.length === 0) errors.roles = AddUserTexts.ROLE_REQUIRED;
  if (!values.status) errors.status = AddUserTexts.STATUS_REQUIRED;
  return errors;
}

/** POST /admin/users's body: the name trimmed, the e-mail trimmed and lower-cased. */
export function addUserPayload(values: AddUserValues) {
  return {
    fullName: values.fullName.trim(),
    email: values.email.trim().toLowerCase(),
    password: values.password,
    confirmPassword: values.confirmPassword,
    roles: values.roles,
    status: values.status as UserStatus,
    markEmailAsVerified: values.markEmailAsVerified,
  };
}

/**
 * A failed create as docs/requirements.md#errors-add-user maps it: a message about an existing e-mail puts
 * 'This email address is already registered' on the e-mail field; one about the password goes on
 * the password field; one about validation reads 'Please check your input and try again' (with
 * the server's field messages on their fields); anything else is shown as is; a failure that is
 * not an Error, 'Failed to create user. Please try again.'.
 */
export function addUserFailure(error: unknown): { fields: AddUserErrors; message?: string } {
  if (!(error instanceof Error)) return { fields: {}, message: AddUserTexts.CREATE_FAILED };
  const text = error.message || '';
  const fields: AddUserErrors = {};
  if (error instanceof ApiError) {
    for (const field of ADD_USER_FIELDS) {
      const message = error.field(field);
      if (message) fields[field] = message;
    }
    if (error.status === 409) return { fields: { email: AddUserTexts.EMAIL_TAKEN } };
  }
  if (/email/i.test(text) && /(exist|already|registered|in use|taken)/i.test(text)) return { fields: { email: AddUserTexts.EMAIL_TAKEN } };
  if (/password/i.test(text)) return { fields: { ...fields, password: fields.password ?? text } };
  if (/validation/i.test(text)) return { fields, message: AddUserTexts.CHECK_INPUT };
  if (Object.keys(fields).length > 0) return { fields };
  return { fields, message: text || AddUserTexts.CREATE_FAILED };
}

// ---- formatting (admin screens are en-US, docs/requirements.md#dates) ----------------------------------------

/** A share of total users as a whole percentage; 0 when there are no users (docs/requirements.md#constants-lists). */
export function percentOf(count: number, total: number): number {
  if (!total || total <= 0 || !Number.isFinite(count)) return 0;
  return Math.round((count / total) * 100);
}

/** 'Jan 5, 2026' and 'Jan 5, 2026, 3:04 PM GMT+7' (the site zone, named); '' when missing. */
export { formatShortDate as adminDate, formatShortDateTime as adminDateTime } from '../../lib/dates';

/** A 'YYYY-MM-DD' day of the activity series as 'Jan 5' (the day as the server counted it, UTC). */
export const activityDay = formatUtcDay;

/** Relative time in the admin screens: after a week the en-US date. */
export const adminRelativeTime = (value: string | null | undefined, now = Date.now()): string => relativeTime(value, 'shortDate', now);
