/**
 * The site setting 'Require 2FA for administrators' on the pages: an administrator
 * without two-factor sign-in who opens /admin or a page under it is sent to its set-up first. The
 * API refuses their ADMIN calls anyway (403); this turns that refusal into the way out. Other
 * visitors cost nothing: the check runs for administrators on admin pages only.
 */
import { defineMiddleware } from 'astro:middleware';
import { TWO_FACTOR_SETUP_PATH } from './routes';
import { normalisePath } from './session';

function isAdminPage(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/');
}

export const adminTwoFactor = defineMiddleware(async (context, next) => {
  const { locals, url } = context;
  if (locals.user?.role !== 'ADMIN' || !isAdminPage(normalisePath(url.pathname))) return next();
  const { data, response } = await locals.api.GET('/api/v1/account/two-factor', {});
  if (response.ok && data?.data.setupRequired) return context.redirect(TWO_FACTOR_SETUP_PATH, 302);
  return next();
});
