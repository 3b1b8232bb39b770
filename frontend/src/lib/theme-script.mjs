// The no-flash theme script (components/ThemeScript.astro), plain JavaScript so that the build's
// CSP step (scripts/csp-script-hashes.mjs) can hash exactly the text the pages carry.
// Runs before first paint: applies the stored theme (light, dark or system; default system).
export const THEME_SCRIPT = `(() => {
  const stored = localStorage.getItem('theme');
  const theme = stored === 'light' || stored === 'dark' ? stored : 'system';
  const dark = theme === 'dark' || (theme === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.dataset.theme = theme;
})();`;
