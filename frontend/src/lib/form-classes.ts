/** The look of a list's filter controls (search box, selects) on the server-rendered pages and in the islands. */
export const FILTER_CONTROL_CLASS =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-950';
