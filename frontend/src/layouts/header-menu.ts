/** A link of the header's menu (below 768 px): the site's links and the account's. */
export const MENU_LINK =
  'block whitespace-nowrap rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 aria-[current=page]:font-semibold aria-[current=page]:text-brand-700 dark:text-slate-200 dark:hover:bg-slate-800 dark:aria-[current=page]:text-brand-100';
