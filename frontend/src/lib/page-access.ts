/**
 * Who may open a signed-in page, in one place (docs/requirements.md#routes-access, docs/requirements.md#permissions; docs/requirements.md#decision-page-redirects):
 * every signed-in page's prologue is `requireRole(Astro, <its rule>)`, and the pages whose rule
 * has a denied view render through `layouts/SignedInPage.astro`.
 *
 * - Anonymous visitors: the session middleware has already sent them to /login?callback=<page>
 *   (302) for every path `needsSession` names; the check here only keeps that true for a page
 *   whose path it does not name.
 * - Wrong role, per page as the spec says: /admin sends anyone below ADMIN to / (302); the other
 *   admin screens (/admin/posts, /admin/tags, /admin/users and their sub-pages) show the 200
 *   'Access Denied' view of AdminAccessDenied with the screen's title; the author's pages send
 *   admins to /admin and readers to / (302, nonAuthorHome below), except /author/posts,
 *   which shows AuthorAccessDenied (200).
 * - Cache-Control is not the pages' business: the server marks every request with a session
 *   cookie `private, no-store`, and the session middleware marks every signed-in render again.
 */
import type { RoleName } from './roles';
import { loginUrl, type SessionUser } from './session';

/** The view a signed-in visitor of the wrong role gets instead of the page (HTTP 200). */
export type DeniedView =
  /** AdminAccessDenied under the page's title, in the visitor's own dashboard layout. */
  | { kind: 'admin'; title: string }
  /** AuthorAccessDenied (Login / Switch Account, Go Home), coming back to `callback`. */
  | { kind: 'author'; callback: string };

/** What a page does with a signed-in visitor whose role is not the page's. */
type WrongRole = { redirect: (role: RoleName) => string } | { view: 'admin'; title: string } | { view: 'author' };

/** A signed-in page's rule: the role it needs (none: any signed-in user) and what the others get. */
export interface PageRule {
  role?: 'ADMIN' | 'AUTHOR';
  wrongRole?: WrongRole;
}

/** The reader's pages (/dashboard, /user-dashboard, /liked-posts, /my-comments): any signed-in user. */
export const SIGNED_IN: PageRule = {};
/** /admin: ADMIN only, others go to / (docs/requirements.md#screen-admin-dashboard: 'others redirected to /'). */
export const ADMIN_DASHBOARD: PageRule = { role: 'ADMIN', wrongRole: { redirect: () => '/' } };
/** An admin screen (/admin/posts/**, /admin/tags/**, /admin/users/**): 'Access Denied' under `title`. */
export const adminScreen = (title: string): PageRule => ({ role: 'ADMIN', wrongRole: { view: 'admin', title } });
/** Where a signed-in visitor who is not an AUTHOR goes from an author page (docs/requirements.md#screen-author-posts, docs/requirements.md#permissions). */
export function nonAuthorHome(role: RoleName): string {
  return role === 'ADMIN' ? '/admin' : '/';
}

/** The author's pages but My Posts (/author, /author/drafts, /author/posts/new, edit, preview). */
export const AUTHOR_PAGE: PageRule = { role: 'AUTHOR', wrongRole: { redirect: nonAuthorHome } };
/** /author/posts: 'You need AUTHOR role to access this page.' (docs/requirements.md#screen-author-posts). */
export const AUTHOR_POSTS: PageRule = { role: 'AUTHOR', wrongRole: { view: 'author' } };

/** A signed-in visitor the page is for, or one who gets the page's denied view. */
export type PageAccess = { allowed: true; user: SessionUser } | { allowed: false; user: SessionUser; denied: DeniedView };

interface PageContext {
  url: URL;
  locals: { user?: SessionUser };
  redirect: (path: string, status?: 301 | 302 | 303 | 307 | 308) => Response;
}

/**
 * A signed-in page's guard: the visitor the page is for (`allowed`), the denied view to render
 * (`allowed: false`), or the redirect to return from the page (a Response).
 *
 *   const access = requireRole(Astro, adminScreen(AdminPostsTexts.TITLE));
 *   if (access instanceof Response) return access;
 */
export function requireRole(Astro: PageContext, rule: PageRule): PageAccess | Response {
  const { url } = Astro;
  const user = Astro.locals.user;
  if (!user) return Astro.redirect(loginUrl(`${url.pathname}${url.search}`), 302);
  if (!rule.role || user.role === rule.role) return { allowed: true, user };
  const wrong = rule.wrongRole ?? { redirect: () => '/' };
  if ('redirect' in wrong) return Astro.redirect(wrong.redirect(user.role), 302);
  return {
    allowed: false,
    user,
    denied: wrong.view === 'admin' ? { kind: 'admin', title: wrong.title } : { kind: 'author', callback: url.pathname },
  };
}
