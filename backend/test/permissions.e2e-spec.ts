import { DataSource } from 'typeorm';
import { RoleName } from '../src/users/roles';
import { createTestApp, TestApp } from './helpers/app';
import { createUser, TestUser } from './helpers/users';

/**
 * Every endpoint × (anonymous, USER, AUTHOR, ADMIN). Requests name ids that do not exist and carry
 * valid bodies, so a caller the route admits gets past authorisation (404, 400, 200...) while a
 * refused one gets 401 (no session) or 403 (wrong role). 'ok' = neither 401 nor 403, and no 5xx.
 */
type Expect = 401 | 403 | 'ok';
type Caller = 'anonymous' | 'USER' | 'AUTHOR' | 'ADMIN';
interface Row {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  body?: Record<string, unknown>;
  expect: [anonymous: Expect, user: Expect, author: Expect, admin: Expect];
}

const MISSING = 999999;
/** Missing ids in paths documented as {postId} and {userId}. */
const MISSING_POST = 999998;
const MISSING_USER = 999997;
/** A missing revision id in paths documented as {revisionId}. */
const MISSING_REVISION = 999996;
/** A missing preview link id, in paths documented as {linkId}. */
const MISSING_LINK = 999995;
/** Webhooks: a missing delivery id, in paths documented as {deliveryId}. */
const MISSING_DELIVERY = 999994;
/** Newsletter: a missing follow id, in paths documented as {followId}. */
const MISSING_FOLLOW = 999993;
const ALL: Row['expect'] = ['ok', 'ok', 'ok', 'ok'];
const SIGNED_IN: Row['expect'] = [401, 'ok', 'ok', 'ok'];
const AUTHORS: Row['expect'] = [401, 403, 'ok', 'ok'];
const ADMINS: Row['expect'] = [401, 403, 403, 'ok'];
const post = { title: 'Matrix post', slug: 'matrix-post', summary: 'S', content: 'Body', tagSlugs: [] };
const tag = { name: 'Matrix tag', slug: 'matrix-tag' };

const MATRIX: Row[] = [
  // public reading
  { method: 'get', path: '/api/v1/health', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public/latest-stories', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public/sitemap', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public/sitemap/posts/1', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public/no-such-post', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public/tag/no-such-tag', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public/moved/no-such-post', expect: ALL },
  { method: 'get', path: '/api/v1/blog/posts/public/no-such-post/related', expect: ALL },
  { method: 'get', path: '/api/v1/blog/search?q=matrix', expect: ALL },
  { method: 'get', path: '/api/v1/blog/tags/moved/no-such-tag', expect: ALL },
  { method: 'get', path: '/api/v1/blog/authors', expect: ALL },
  { method: 'get', path: '/api/v1/blog/authors/no-such-author', expect: ALL },
  { method: 'get', path: '/api/v1/blog/authors/no-such-author/posts', expect: ALL },
  { method: 'get', path: '/api/v1/blog/tags/publish', expect: ALL },
  { method: 'get', path: '/api/v1/blog/tags', expect: ALL },
  { method: 'get', path: `/api/v1/blog/tags/${MISSING}`, expect: ALL },
  // comments (ids that do not exist: 404 for callers admitted; {postId} and {userId} paths use their own markers)
  { method: 'get', path: `/api/v1/blog/posts/${MISSING}/comments`, expect: ALL },
  { method: 'post', path: `/api/v1/blog/posts/${MISSING}/comments`, body: { content: 'Matrix comment' }, expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/blog/comments/${MISSING}`, expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/comments', body: { postId: MISSING, content: 'Matrix comment' }, expect: SIGNED_IN },
  { method: 'get', path: `/api/v1/comments/post/${MISSING_POST}`, expect: ALL },
  { method: 'get', path: '/api/v1/comments/my-comments', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/comments/my-recent', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/comments/search?keyword=matrix', expect: ALL },
  { method: 'get', path: `/api/v1/comments/stats/post/${MISSING_POST}`, expect: ALL },
  { method: 'get', path: '/api/v1/comments/admin/recent', expect: ADMINS },
  { method: 'get', path: `/api/v1/comments/user/${MISSING_USER}`, expect: ALL },
  { method: 'get', path: `/api/v1/comments/by-user/${MISSING_USER}`, expect: ALL },
  { method: 'get', path: `/api/v1/comments/${MISSING}/replies`, expect: ALL },
  { method: 'put', path: `/api/v1/comments/${MISSING}`, body: { content: 'Matrix comment' }, expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/comments/${MISSING}`, expect: SIGNED_IN },
  // accounts (anonymous by nature)
  {
    method: 'post',
    path: '/api/v1/auth/register',
    body: { fullName: 'x', email: 'bad', password: 'x', confirmPassword: 'y' },
    expect: ALL,
  },
  { method: 'post', path: '/api/v1/auth/verify-email', body: { email: 'nobody@example.com', verificationCode: '000000' }, expect: ALL },
  {
    method: 'post',
    path: '/api/v1/auth/login',
    body: { email: 'nobody@example.com', password: 'wrong-password' },
    expect: [401, 401, 401, 401],
  },
  {
    method: 'post',
    path: '/api/v1/auth/forgot-password',
    body: { email: 'nobody@example.com', redirectUrl: 'http://localhost:3000/reset-password' },
    expect: ALL,
  },
  { method: 'get', path: '/api/v1/auth/validate-reset-token?token=nothing', expect: ALL },
  {
    method: 'post',
    path: '/api/v1/auth/reset-password',
    body: { token: 'nothing', newPassword: 'Aa1!aaaa', confirmPassword: 'Aa1!aaaa' },
    expect: ALL,
  },
  // the caller's own account
  { method: 'get', path: '/api/v1/users/profile', expect: SIGNED_IN },
  { method: 'put', path: '/api/v1/users/profile', body: { bio: 'Matrix' }, expect: SIGNED_IN },
  { method: 'delete', path: '/api/v1/users/avatar', expect: SIGNED_IN },
  {
    method: 'post',
    path: '/api/v1/user/change-password',
    body: { currentPassword: 'wrong', newPassword: 'Aa1!aaaa', confirmNewPassword: 'Aa1!aaaa' },
    expect: SIGNED_IN,
  },
  // API tokens: the caller's own; an invalid body and an unknown id change nothing
  { method: 'get', path: '/api/v1/account/tokens', expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/account/tokens', body: { name: '', scopes: [], expiresInDays: 7 }, expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/account/tokens/${MISSING}`, expect: SIGNED_IN },
  // likes (ids that do not exist: 404 for callers admitted)
  { method: 'get', path: '/api/v1/likes/test', expect: ALL },
  { method: 'get', path: `/api/v1/likes/post/${MISSING}/count`, expect: ALL },
  { method: 'post', path: `/api/v1/likes/post/${MISSING}/toggle`, expect: SIGNED_IN },
  { method: 'post', path: `/api/v1/likes/post/${MISSING}`, expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/likes/post/${MISSING}`, expect: SIGNED_IN },
  { method: 'get', path: `/api/v1/likes/post/${MISSING}/status`, expect: SIGNED_IN },
  { method: 'get', path: `/api/v1/likes/post/${MISSING}/check`, expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/likes/user/my-likes', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/likes/user/my-likes/recent', expect: SIGNED_IN },
  { method: 'post', path: `/api/v1/blog/posts/${MISSING}/like`, expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/blog/posts/${MISSING}/like`, expect: SIGNED_IN },
  // sessions: the caller's own; another's or an unknown session id is 404
  { method: 'get', path: '/api/v1/account/sessions', expect: SIGNED_IN },
  { method: 'delete', path: '/api/v1/account/sessions', expect: SIGNED_IN },
  { method: 'delete', path: '/api/v1/account/sessions/00000000-0000-4000-8000-000000000000', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/account/sessions/alerts', expect: SIGNED_IN },
  { method: 'put', path: '/api/v1/account/sessions/alerts', body: { newDeviceEmail: true }, expect: SIGNED_IN },
  // notifications: the caller's own (an unknown id is 404); unsubscribe links need no session
  { method: 'get', path: '/api/v1/notifications', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/notifications/unread-count', expect: SIGNED_IN },
  { method: 'post', path: `/api/v1/notifications/${MISSING}/read`, expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/notifications/read-all', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/notifications/preferences', expect: SIGNED_IN },
  { method: 'put', path: '/api/v1/notifications/preferences', body: { digest: false }, expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/notifications/unsubscribe?token=nothing', expect: ALL },
  { method: 'post', path: '/api/v1/notifications/unsubscribe?token=nothing', expect: ALL },
  // dashboards
  { method: 'get', path: '/api/v1/dashboard/quick-stats', expect: ALL },
  { method: 'get', path: '/api/v1/dashboard/stats', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/dashboard/user/stats', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/dashboard/author/stats', expect: AUTHORS },
  { method: 'get', path: '/api/v1/dashboard/admin/activity', expect: ADMINS },
  // authoring
  { method: 'get', path: '/api/v1/blog/posts/author/my-posts', expect: AUTHORS },
  { method: 'get', path: '/api/v1/blog/posts/author/my-posts/counts', expect: AUTHORS },
  { method: 'post', path: '/api/v1/blog/posts/author/create', body: { ...post, slug: '' }, expect: AUTHORS },
  { method: 'put', path: `/api/v1/blog/posts/author/${MISSING}`, body: post, expect: AUTHORS },
  { method: 'post', path: `/api/v1/blog/posts/author/${MISSING}/submit-for-review`, expect: AUTHORS },
  { method: 'post', path: '/api/v1/blog/posts/preview', body: { content: '# Matrix' }, expect: AUTHORS },
  { method: 'get', path: `/api/v1/blog/posts/${MISSING}`, expect: AUTHORS },
  { method: 'put', path: `/api/v1/blog/posts/${MISSING}`, body: post, expect: AUTHORS },
  { method: 'delete', path: `/api/v1/blog/posts/${MISSING}`, expect: AUTHORS },
  { method: 'get', path: `/api/v1/blog/post-reviews/${MISSING}/history`, expect: AUTHORS },
  // revisions: as editing; readers 403 before any lookup
  { method: 'get', path: `/api/v1/blog/posts/${MISSING}/revisions`, expect: AUTHORS },
  { method: 'get', path: `/api/v1/blog/posts/${MISSING}/revisions/compare?from=1`, expect: AUTHORS },
  { method: 'get', path: `/api/v1/blog/posts/${MISSING}/revisions/${MISSING_REVISION}`, expect: AUTHORS },
  { method: 'post', path: `/api/v1/blog/posts/${MISSING}/revisions/${MISSING_REVISION}/restore`, body: {}, expect: AUTHORS },
  { method: 'get', path: `/api/v1/blog/posts/${MISSING}/review-diff`, expect: AUTHORS },
  // preview links: managed as editing, read by anyone with a token
  { method: 'post', path: `/api/v1/blog/posts/${MISSING}/preview-links`, expect: AUTHORS },
  { method: 'get', path: `/api/v1/blog/posts/${MISSING}/preview-links`, expect: AUTHORS },
  { method: 'delete', path: `/api/v1/blog/posts/${MISSING}/preview-links/${MISSING_LINK}`, expect: AUTHORS },
  { method: 'get', path: '/api/v1/blog/preview/no-such-token', expect: ALL },
  // back-office
  { method: 'get', path: '/api/v1/blog/posts/admin/all', expect: ADMINS },
  { method: 'get', path: '/api/v1/blog/posts', expect: ADMINS },
  { method: 'post', path: '/api/v1/blog/posts', body: { ...post, slug: 'Bad Slug', status: 'DRAFT', isFeatured: false }, expect: ADMINS },
  { method: 'put', path: `/api/v1/blog/posts/admin/${MISSING}/review`, body: { status: 'APPROVED' }, expect: ADMINS },
  // scheduled publishing
  { method: 'put', path: `/api/v1/blog/posts/admin/${MISSING}/schedule`, body: { publishAt: '2030-01-01T09:00:00+07:00' }, expect: ADMINS },
  { method: 'delete', path: `/api/v1/blog/posts/admin/${MISSING}/schedule`, expect: ADMINS },
  { method: 'post', path: '/api/v1/blog/tags', body: { ...tag, slug: 'Bad Slug' }, expect: ADMINS },
  { method: 'put', path: `/api/v1/blog/tags/${MISSING}`, body: tag, expect: ADMINS },
  { method: 'delete', path: `/api/v1/blog/tags/${MISSING}`, expect: ADMINS },
  { method: 'delete', path: `/api/v1/blog/tags/${MISSING}/deactivate`, expect: ADMINS },
  { method: 'post', path: `/api/v1/blog/tags/${MISSING}/activate`, expect: ADMINS },
  // images (host root; without a file: 400 for the callers admitted)
  { method: 'get', path: '/images/upload-info', expect: ALL },
  { method: 'post', path: '/images/validate', expect: ALL },
  { method: 'post', path: '/images/thumbnail/upload', expect: AUTHORS },
  // user administration and the admin dashboard (unknown ids and invalid bodies: nothing changes)
  { method: 'get', path: '/api/v1/admin/users', expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/users/search?query=matrix', expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/users/status/ACTIVE', expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/users/verified/true', expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/users/role/AUTHOR', expect: ADMINS },
  { method: 'get', path: `/api/v1/admin/users/${MISSING}`, expect: ADMINS },
  { method: 'get', path: `/api/v1/admin/users/${MISSING}/ban-status`, expect: ADMINS },
  { method: 'get', path: `/api/v1/admin/users/${MISSING}/audit-log`, expect: ADMINS },
  { method: 'post', path: '/api/v1/admin/users', body: { fullName: 'Matrix', email: 'bad' }, expect: ADMINS },
  { method: 'put', path: `/api/v1/admin/users/${MISSING}`, body: { bio: 'Matrix' }, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/users/${MISSING}/generate-password`, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/users/${MISSING}/ban`, body: { reason: 'Matrix' }, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/users/${MISSING}/unban`, body: { reason: 'Matrix' }, expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/stats', expect: ADMINS },
  { method: 'get', path: '/api/v1/dashboard/admin/stats', expect: ADMINS },
  // site settings (an invalid body: nothing changes)
  { method: 'get', path: '/api/v1/admin/settings', expect: ADMINS },
  { method: 'patch', path: '/api/v1/admin/settings', body: { requireAdminTwoFactor: 'matrix' }, expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/backups/status', expect: ADMINS },
  // two-factor sign-in: wrong codes, so nothing turns on or off
  {
    method: 'post',
    path: '/api/v1/auth/login/two-factor',
    body: { challengeToken: 'nothing', code: '000000' },
    expect: [401, 401, 401, 401],
  },
  { method: 'get', path: '/api/v1/account/two-factor', expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/account/two-factor/setup', expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/account/two-factor/confirm', body: { code: '000000' }, expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/account/two-factor/disable', body: { password: 'wrong-password', code: '000000' }, expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/account/two-factor/recovery-codes', body: { code: '000000' }, expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/admin/users/${MISSING}/two-factor`, expect: ADMINS },
  // Your data (a wrong password and a cancel without one: nothing is deleted here)
  { method: 'get', path: '/api/v1/account/deletion', expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/account/deletion', body: { password: 'Matrix-wrong1!', confirmation: 'DELETE' }, expect: SIGNED_IN },
  { method: 'post', path: '/api/v1/account/deletion/cancel', body: { email: 'matrix@example.com' }, expect: ALL },
  { method: 'post', path: '/api/v1/account/export', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/account/export', expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/account/export/download/no-such-token', expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/admin/users/${MISSING}`, expect: ADMINS },
  // site import and export (a JSON body instead of the upload: 400 for an admin, nothing queued)
  { method: 'post', path: '/api/v1/admin/imports?source=wordpress', body: { file: 'matrix' }, expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/imports', expect: ADMINS },
  { method: 'get', path: `/api/v1/admin/imports/${MISSING}`, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/imports/${MISSING}/cancel`, expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/export', expect: ADMINS },
  { method: 'get', path: '/api/v1/blog/posts/public/moved-path?path=/2014/03/no-such-post/', expect: ALL },
  // comment moderation
  { method: 'post', path: `/api/v1/comments/${MISSING}/reports`, body: { reason: 'SPAM' }, expect: SIGNED_IN },
  { method: 'post', path: `/api/v1/comments/${MISSING}/hide`, body: { reason: 'Matrix' }, expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/admin/comments', expect: ADMINS },
  { method: 'post', path: '/api/v1/admin/comments/bulk', body: { ids: [MISSING], action: 'dismiss' }, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/comments/${MISSING}/restore`, expect: ADMINS },
  { method: 'delete', path: `/api/v1/admin/comments/${MISSING}`, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/comments/${MISSING}/dismiss-reports`, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/users/${MISSING}/mute`, body: { until: null, reason: 'Matrix' }, expect: ADMINS },
  { method: 'delete', path: `/api/v1/admin/users/${MISSING}/mute`, expect: ADMINS },
  // webhooks (invalid bodies and missing ids: nothing is created or sent)
  { method: 'get', path: '/api/v1/admin/webhooks', expect: ADMINS },
  { method: 'post', path: '/api/v1/admin/webhooks', body: { url: '', events: [] }, expect: ADMINS },
  { method: 'get', path: `/api/v1/admin/webhooks/${MISSING}`, expect: ADMINS },
  { method: 'put', path: `/api/v1/admin/webhooks/${MISSING}`, body: { active: true }, expect: ADMINS },
  { method: 'delete', path: `/api/v1/admin/webhooks/${MISSING}`, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/webhooks/${MISSING}/test`, expect: ADMINS },
  { method: 'get', path: `/api/v1/admin/webhooks/${MISSING}/attempts`, expect: ADMINS },
  { method: 'post', path: `/api/v1/admin/webhooks/${MISSING}/deliveries/${MISSING_DELIVERY}/redeliver`, expect: ADMINS },
  // newsletter: one's own follows (a missing author: 404); the visitor's form and the signed links need no session (bad tokens: 400)
  { method: 'get', path: '/api/v1/newsletter/follows', expect: SIGNED_IN },
  { method: 'put', path: `/api/v1/newsletter/follows/author/${MISSING}`, expect: SIGNED_IN },
  { method: 'delete', path: `/api/v1/newsletter/follows/author/${MISSING}`, expect: SIGNED_IN },
  { method: 'put', path: '/api/v1/newsletter/settings', body: { cadence: 'sometimes' }, expect: SIGNED_IN },
  { method: 'get', path: '/api/v1/newsletter/followers/count', expect: AUTHORS },
  { method: 'post', path: '/api/v1/newsletter/subscribe', body: { email: 'bad', kind: 'publication', targetId: 0 }, expect: ALL },
  { method: 'get', path: '/api/v1/newsletter/confirm?token=nothing', expect: ALL },
  { method: 'post', path: '/api/v1/newsletter/confirm?token=nothing', expect: ALL },
  { method: 'get', path: '/api/v1/newsletter/preferences?token=nothing', expect: ALL },
  { method: 'put', path: '/api/v1/newsletter/preferences?token=nothing', body: { cadence: 'instant' }, expect: ALL },
  { method: 'delete', path: `/api/v1/newsletter/preferences/follows/${MISSING_FOLLOW}?token=nothing`, expect: ALL },
  { method: 'post', path: '/api/v1/newsletter/preferences/unsubscribe-all?token=nothing', expect: ALL },
  { method: 'get', path: '/api/v1/newsletter/unsubscribe?token=nothing', expect: ALL },
  { method: 'post', path: '/api/v1/newsletter/unsubscribe?token=nothing', expect: ALL },
  // newsletter administration (missing ids, invalid bodies: nothing changes)
  { method: 'get', path: '/api/v1/newsletter/admin/subscribers', expect: ADMINS },
  { method: 'delete', path: `/api/v1/newsletter/admin/subscribers/${MISSING}`, expect: ADMINS },
  { method: 'get', path: '/api/v1/newsletter/admin/subscribers/export', expect: ADMINS },
  { method: 'post', path: '/api/v1/newsletter/admin/subscribers/import', body: { csv: '' }, expect: ADMINS },
  { method: 'get', path: '/api/v1/newsletter/admin/counts', expect: ADMINS },
  { method: 'get', path: '/api/v1/newsletter/admin/suppressions', expect: ADMINS },
  { method: 'post', path: '/api/v1/newsletter/admin/suppressions', body: { email: 'bad' }, expect: ADMINS },
  { method: 'delete', path: '/api/v1/newsletter/admin/suppressions?email=matrix-nobody@example.com', expect: ADMINS },
  // newsletter sending: a post's send (admin; a missing post: 404); the bounce endpoint is signed instead (none here: 401 for all)
  { method: 'get', path: `/api/v1/newsletter/posts/${MISSING_POST}/send`, expect: ADMINS },
  { method: 'put', path: `/api/v1/newsletter/posts/${MISSING_POST}/send`, body: { sendEmail: false }, expect: ADMINS },
  { method: 'get', path: `/api/v1/newsletter/posts/${MISSING_POST}/deliveries`, expect: ADMINS },
  { method: 'post', path: `/api/v1/newsletter/posts/${MISSING_POST}/send/retry-failed`, expect: ADMINS },
  { method: 'post', path: `/api/v1/newsletter/posts/${MISSING_POST}/test`, expect: ADMINS },
  { method: 'get', path: `/api/v1/newsletter/posts/${MISSING_POST}/preview`, expect: ADMINS },
  { method: 'get', path: `/api/v1/newsletter/posts/${MISSING_POST}/preview.html`, expect: ADMINS },
  { method: 'post', path: '/api/v1/newsletter/bounces', body: { events: [] }, expect: [401, 401, 401, 401] },
  // analytics: an author's own figures and posts; the site and per-author figures for admins
  { method: 'get', path: '/api/v1/analytics/me?days=7', expect: AUTHORS },
  { method: 'get', path: `/api/v1/analytics/posts/${MISSING}`, expect: AUTHORS },
  { method: 'get', path: '/api/v1/admin/analytics', expect: ADMINS },
  { method: 'get', path: `/api/v1/admin/analytics/authors/${MISSING}`, expect: ADMINS },
  // federation (docs/federation.md): the status and reactions are public, an author's followers theirs, the back office admins'
  { method: 'get', path: '/api/v1/federation', expect: ALL },
  { method: 'get', path: '/api/v1/federation/me', expect: AUTHORS },
  { method: 'get', path: '/api/v1/federation/me/following', expect: AUTHORS },
  { method: 'post', path: '/api/v1/federation/me/following', body: { account: '' }, expect: AUTHORS },
  { method: 'delete', path: `/api/v1/federation/me/following/${MISSING}`, expect: AUTHORS },
  { method: 'get', path: `/api/v1/federation/posts/${MISSING}/reactions`, expect: ALL },
  { method: 'get', path: '/api/v1/admin/federation', expect: ADMINS },
  { method: 'put', path: '/api/v1/admin/federation', body: { enabled: true }, expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/federation/followers', expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/federation/deliveries', expect: ADMINS },
  { method: 'get', path: '/api/v1/admin/federation/blocks', expect: ADMINS },
  { method: 'post', path: '/api/v1/admin/federation/blocks', body: { kind: 'instance', value: '' }, expect: ADMINS },
  { method: 'delete', path: `/api/v1/admin/federation/blocks/${MISSING}`, expect: ADMINS },
];

const PARAM_OF: Record<string, string> = {
  [MISSING_POST]: 'postId',
  [MISSING_USER]: 'userId',
  [MISSING_REVISION]: 'revisionId',
  [MISSING_LINK]: 'linkId',
  [MISSING_DELIVERY]: 'deliveryId',
  [MISSING_FOLLOW]: 'followId',
  'no-such-token': 'token',
};

/** The row's endpoint as the OpenAPI document names it: 'GET /api/v1/blog/tags/{id}'. */
function documentedEndpoint(row: Row): string {
  const path = row.path
    .split('?')[0]
    .replace(
      /\/(999999|999998|999997|999996|999995|999994|999993|no-such-post|no-such-tag|no-such-author|no-such-token)(?=\/|$)/g,
      (_m, v: string) => (PARAM_OF[v] ? `/{${PARAM_OF[v]}}` : /^\d/.test(v) ? '/{id}' : '/{slug}'),
    )
    .replace(
      /\/admin\/users\/(status|verified|role)\/[^/]+$/,
      (_m, kind: string) => `/admin/users/${kind}/{${kind === 'verified' ? 'flag' : kind}}`,
    )
    .replace(/\/sitemap\/posts\/\d+$/, '/sitemap/{kind}/{number}')
    .replace(/\/newsletter\/follows\/\w+\/\{id\}$/, '/newsletter/follows/{kind}/{targetId}')
    // Session ids are UUIDs.
    .replace(/\/account\/sessions\/[0-9a-f-]{36}$/, '/account/sessions/{id}');
  return `${row.method.toUpperCase()} ${path}`;
}
const CALLERS: Caller[] = ['anonymous', 'USER', 'AUTHOR', 'ADMIN'];

describe('Permission matrix', () => {
  let t: TestApp;
  const users: Partial<Record<Caller, TestUser>> = {};

  beforeAll(async () => {
    t = await createTestApp();
    users.USER = await createUser(t, [RoleName.USER]);
    users.AUTHOR = await createUser(t, [RoleName.AUTHOR]);
    users.ADMIN = await createUser(t, [RoleName.ADMIN]);
  });
  afterAll(() => t.close());

  it('covers every endpoint of the API', async () => {
    const document = (await t.http.get('/api/docs-json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const covered = new Set(MATRIX.map(documentedEndpoint));
    // Endpoints whose access rule is their whole behaviour and is tested in their own spec files.
    const elsewhere = [
      'POST /api/v1/auth/resend-verification',
      'POST /api/v1/auth/refresh-token',
      'POST /api/v1/auth/logout',
      'POST /api/v1/users/avatar',
      'DELETE /images/{filename}',
    ];
    expect(documented.filter((endpoint) => !covered.has(endpoint) && !elsewhere.includes(endpoint))).toEqual([]);
  });

  it('documents the access rule it enforces (OpenAPI security: [] or {} where anonymous callers pass)', async () => {
    const document = (await t.http.get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { security?: object[] }>>;
    };
    const wrong: string[] = [];
    for (const row of MATRIX) {
      const [method, path] = documentedEndpoint(row).split(' ');
      const security = document.paths[path]?.[method.toLowerCase()]?.security;
      if (!security) continue; // an endpoint missing from the document fails the test above
      const anonymousPasses = security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
      const sessionRequired = row.expect[0] === 401 && row.expect.includes('ok');
      if (row.expect[0] === 'ok' && !anonymousPasses)
        wrong.push(`${method} ${path}: admits anonymous callers, documented as needing a session`);
      if (sessionRequired && anonymousPasses) wrong.push(`${method} ${path}: needs a session, documented as open to anonymous callers`);
    }
    expect(wrong).toEqual([]);
  });

  // The inboxes are Fedify's (not in the OpenAPI document): whoever calls, a request without an HTTP
  // signature is refused (401, 400), never a 5xx; a session cookie or token changes nothing. Fedify needs Node >= 22.
  (Number(process.versions.node.split('.')[0]) >= 22 ? it : it.skip)(
    'refuses unsigned inbox requests from every caller (401)',
    async () => {
      const activity = {
        '@context': 'https://www.w3.org/ns/activitystreams',
        type: 'Follow',
        actor: 'https://remote.example/u',
        object: 'x',
      };
      for (const path of ['/ap/inbox', '/ap/actors/site/inbox']) {
        for (const caller of CALLERS) {
          let call = t.http.post(path).set('Content-Type', 'application/activity+json');
          const user = users[caller as Exclude<Caller, 'anonymous'>];
          if (user) call = call.set(user.auth);
          const res = await call.send(JSON.stringify(activity));
          // 401 (no signature), or 400 when Fedify cannot even read the unsigned activity's origin.
          expect(`${path} as ${caller}: ${res.status === 400 ? 401 : res.status}`).toBe(`${path} as ${caller}: 401`);
        }
      }
    },
  );

  // Hundreds of requests in one test: on a busy machine they take longer than jest's default 30 s.
  it('admits and refuses each caller as the design says', async () => {
    const actual: string[] = [];
    const wanted: string[] = [];
    for (const row of MATRIX) {
      for (const [index, caller] of CALLERS.entries()) {
        let call = t.http[row.method](row.path);
        const user = users[caller as Exclude<Caller, 'anonymous'>];
        if (user) call = call.set(user.auth);
        const res = await (row.body ? call.send(row.body) : call);
        const got: Expect | number = res.status === 401 || res.status === 403 ? res.status : res.status >= 500 ? res.status : 'ok';
        actual.push(`${row.method.toUpperCase()} ${row.path} as ${caller}: ${got}`);
        wanted.push(`${row.method.toUpperCase()} ${row.path} as ${caller}: ${row.expect[index]}`);
      }
    }
    expect(actual).toEqual(wanted);
  }, 180_000);

  // A muted reader is a USER who may not write comments (create, reply, edit: 403 before anything else); every other route as for USER.
  it('a muted user: 403 on comment create, reply and edit, everything else as a USER', async () => {
    const muted = await createUser(t, [RoleName.USER]);
    await t.app.get(DataSource).query(`INSERT INTO user_mutes (user_id, muted_until, reason) VALUES ($1, NULL, 'Matrix')`, [muted.id]);
    const writes = new Set([`POST /api/v1/blog/posts/${MISSING}/comments`, 'POST /api/v1/comments', `PUT /api/v1/comments/${MISSING}`]);
    const actual: string[] = [];
    const wanted: string[] = [];
    for (const row of MATRIX) {
      const key = `${row.method.toUpperCase()} ${row.path}`;
      const call = t.http[row.method](row.path).set(muted.auth);
      const res = await (row.body ? call.send(row.body) : call);
      const got: Expect | number = res.status === 401 || res.status === 403 ? res.status : res.status >= 500 ? res.status : 'ok';
      actual.push(`${key}: ${got}`);
      wanted.push(`${key}: ${writes.has(key) ? 403 : row.expect[1]}`);
    }
    expect(actual).toEqual(wanted);
  }, 180_000);
});
