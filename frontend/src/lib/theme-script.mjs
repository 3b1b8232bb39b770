// The no-flash script (components/ThemeScript.astro), plain JavaScript so that the build's
// CSP step (scripts/csp-script-hashes.mjs) can hash exactly the text the pages carry.
// Runs before first paint: applies the stored theme (light, dark or system; default system), and
// marks <html data-signed-in> when the signed-in hint cookie (SIGNED_IN_HINT_COOKIE of
// isomorphic/public-pages.ts) is there, so a public page's personal placeholders take the signed-in
// parts' size from the first paint (global.css, 'Personal parts').
export const THEME_SCRIPT = `(() => {
  const stored = localStorage.getItem('theme');
  const theme = stored === 'light' || stored === 'dark' ? stored : 'system';
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.dataset.theme = theme;
  if (/(?:^|;\\s*)inkwell_signed_in=1(?:;|$)/.test(document.cookie)) document.documentElement.dataset.signedIn = '';
})();`;
