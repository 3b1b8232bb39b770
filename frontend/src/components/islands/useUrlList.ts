/**
 * The state machine of a back-office list whose address is its state (/admin/posts,
 * /admin/tags, /admin/users; docs/requirements.md#constants-paging): the query, the page read for it and its failure,
 * loading, the search box applied 300 ms after the last keystroke, Back and Forward, links a
 * plain click follows without a page load, the toasts, the editor's one-time `?notice` banner
 * and the element to focus after the next render. Only the newest read is applied (a request
 * ticket); a page past the end reads the last page instead. The options after `failure` are
 * the ways a list may differ (their defaults are the posts and tags lists' behaviour).
 */
import { useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../lib/admin-list';
import { useNotices } from './notices';
import { useHydrated } from './form-controls';

export type HistoryMode = 'push' | 'replace' | 'none';

export interface UrlListOptions<Q extends { search: string; page: number }, P extends { totalPages: number }> {
  initialQuery: Q;
  /** The server's read of that query, or (null) the message of its failure. */
  initialPage: P | null;
  initialError?: string;
  /** The editor's notice from the address: shown once, then dropped from it. */
  notice?: 'created' | 'updated';
  /** The address a query shows at. */
  hrefOf: (query: Q) => string;
  /** The list's read for a query (throws on failure). */
  fetchPage: (query: Q) => Promise<P>;
  /** The query of the current address (after Back or Forward); undefined: not this list's address, ignored. */
  queryFromLocation: () => Q | undefined;
  /** The longest search the list sends. */
  searchMax: number;
  /** A failed read: the message shown in the list, and the toast's title (no title: no toast, the list's alert says it). */
  failure: (error: unknown) => { title?: string; message: string };
  /** A push to the address already shown replaces it instead (no duplicate history entry). Default false. */
  replaceSameAddress?: boolean;
  /** The filter form's submit: a new history entry ('push', the default) or the current one replaced. */
  submitHistory?: 'push' | 'replace';
  /**
   * Typed search text that is not applied yet survives other changes (a filter, a sort link, the
   * pager) and is applied 300 ms after its last keystroke on top of them; only Back and Forward
   * (and the caller) set the box. Default false: every read shows its own search in the box, and
   * the wait restarts when the query changes.
   */
  keepTypedSearch?: boolean;
}

/** A plain left click that the island may take over (new-tab clicks keep the link). */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export function useUrlList<Q extends { search: string; page: number }, P extends { totalPages: number }>(options: UrlListOptions<Q, P>) {
  const { initialQuery, initialPage, initialError, notice, searchMax } = options;
  const hydrated = useHydrated();
  const [query, setQuery] = useState<Q>(initialQuery);
  const [data, setData] = useState<P | null>(initialPage);
  const [error, setError] = useState<string | undefined>(initialError);
  /** The query whose read failed (while `error` is shown). */
  const [failedQuery, setFailedQuery] = useState<Q | undefined>(initialError === undefined ? undefined : initialQuery);
  const [loading, setLoading] = useState(false);
  const [searchText, setSearchText] = useState(initialQuery.search);
  const [banner, setBanner] = useState(notice);
  const { notices, notify, dismiss } = useNotices();
  const request = useRef(0);
  const focusAfter = useRef<string | undefined>(undefined);
  const latest = useRef(options);
  latest.current = options;
  const queryRef = useRef(query);
  queryRef.current = query;

  const load = useCallback(
    async (next: Q, history: HistoryMode = 'push') => {
      const { hrefOf, fetchPage, failure, replaceSameAddress, keepTypedSearch } = latest.current;
      const ticket = ++request.current;
      setQuery(next);
      if (!keepTypedSearch) setSearchText((current) => (current.trim() === next.search ? current : next.search));
      if (history !== 'none') {
        const address = hrefOf(next);
        const push = history === 'push' && !(replaceSameAddress && address === `${window.location.pathname}${window.location.search}`);
        window.history[push ? 'pushState' : 'replaceState'](null, '', address);
      }
      setLoading(true);
      try {
        const page = await fetchPage(next);
        if (ticket !== request.current) return;
        if (page.totalPages > 0 && next.page >= page.totalPages) {
          void load({ ...next, page: page.totalPages - 1 }, 'replace');
          return;
        }
        setData(page);
        setError(undefined);
        setFailedQuery(undefined);
      } catch (caught) {
        if (ticket !== request.current) return;
        const { title, message } = failure(caught);
        setError(message);
        setFailedQuery(next);
        if (title !== undefined) notify('error', title, message);
      } finally {
        if (ticket === request.current) setLoading(false);
      }
    },
    [notify],
  );

  // Back and Forward between list states.
  useEffect(() => {
    const onPop = () => {
      const next = latest.current.queryFromLocation();
      if (!next) return;
      if (latest.current.keepTypedSearch) setSearchText(next.search);
      void load(next, 'none');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [load]);

  // Back to the list from a row's page (a user banned on /admin/users/{id}): a page the browser
  // restores from its back-forward cache shows the rows as they were, so they are read again and
  // a row that no longer matches the filter leaves.
  useEffect(() => {
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) void load(queryRef.current, 'none');
    };
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, [load]);

  // The editor's success notice: shown once, then dropped from the address.
  useEffect(() => {
    if (!notice) return;
    const url = new URL(window.location.href);
    url.searchParams.delete('notice');
    window.history.replaceState(null, '', url.pathname + url.search);
  }, [notice]);

  // Search: 300 ms after the last keystroke (docs/requirements.md#constants-sorting). With keepTypedSearch a change of the
  // query does not restart the wait, and the search goes on top of the query current by then.
  const restartOn = options.keepTypedSearch ? undefined : query;
  useEffect(() => {
    if (!hydrated || searchText.trim() === (restartOn ?? queryRef.current).search) return;
    const timer = window.setTimeout(
      () => void load({ ...(restartOn ?? queryRef.current), search: searchText.trim().slice(0, searchMax), page: 0 }, 'replace'),
      SEARCH_DEBOUNCE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [searchText, restartOn, hydrated, load, searchMax]);

  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = undefined;
  });

  /** A link's click handler: a plain click loads `next` in place (a new history entry unless told). */
  const navigate =
    (next: Q, history: HistoryMode = 'push') =>
    (event: MouseEvent<HTMLAnchorElement>) => {
      if (!hydrated || !isPlainClick(event)) return;
      event.preventDefault();
      void load(next, history);
    };

  /** The filter form's submit: apply the search box now. */
  const submitSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void load({ ...query, search: searchText.trim().slice(0, searchMax), page: 0 }, options.submitHistory ?? 'push');
  };

  return {
    hydrated,
    query,
    data,
    setData,
    error,
    failedQuery,
    loading,
    searchText,
    setSearchText,
    banner,
    dismissBanner: () => setBanner(undefined),
    notices,
    notify,
    dismiss,
    focusAfter,
    load,
    navigate,
    submitSearch,
  };
}
