/**
 * The state machine of a back-office list whose address is its state (/admin/posts,
 * /admin/tags; spec 001 §9): the query, the page read for it and its failure, loading, the
 * search box applied 300 ms after the last keystroke, Back and Forward, links a plain click
 * follows without a page load, the toasts, the editor's one-time `?notice` banner and the
 * element to focus after the next render. Only the newest read is applied (a request ticket);
 * a page past the end reads the last page instead.
 */
import { useCallback, useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import { SEARCH_DEBOUNCE_MS } from '../../lib/admin-list';
import { useNotices } from './AdminDialog';
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
  /** The query of the current address (after Back or Forward). */
  queryFromLocation: () => Q;
  /** The longest search the list sends. */
  searchMax: number;
  /** A failed read: the message shown in the list, and the toast's title. */
  failure: (error: unknown) => { title: string; message: string };
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
  const [loading, setLoading] = useState(false);
  const [searchText, setSearchText] = useState(initialQuery.search);
  const [banner, setBanner] = useState(notice);
  const { notices, notify, dismiss } = useNotices();
  const request = useRef(0);
  const focusAfter = useRef<string | undefined>(undefined);
  const latest = useRef(options);
  latest.current = options;

  const load = useCallback(
    async (next: Q, history: HistoryMode = 'push') => {
      const { hrefOf, fetchPage, failure } = latest.current;
      const ticket = ++request.current;
      setQuery(next);
      setSearchText((current) => (current.trim() === next.search ? current : next.search));
      if (history !== 'none') window.history[history === 'push' ? 'pushState' : 'replaceState'](null, '', hrefOf(next));
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
      } catch (caught) {
        if (ticket !== request.current) return;
        const { title, message } = failure(caught);
        setError(message);
        notify('error', title, message);
      } finally {
        if (ticket === request.current) setLoading(false);
      }
    },
    [notify],
  );

  // Back and Forward between list states.
  useEffect(() => {
    const onPop = () => void load(latest.current.queryFromLocation(), 'none');
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [load]);

  // The editor's success notice: shown once, then dropped from the address.
  useEffect(() => {
    if (!notice) return;
    const url = new URL(window.location.href);
    url.searchParams.delete('notice');
    window.history.replaceState(null, '', url.pathname + url.search);
  }, [notice]);

  // Search: 300 ms after the last keystroke (spec 001 §9).
  useEffect(() => {
    if (!hydrated || searchText.trim() === query.search) return;
    const timer = window.setTimeout(() => void load({ ...query, search: searchText.trim().slice(0, searchMax), page: 0 }, 'replace'), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [searchText, query, hydrated, load, searchMax]);

  useEffect(() => {
    if (!focusAfter.current) return;
    document.getElementById(focusAfter.current)?.focus();
    focusAfter.current = undefined;
  });

  /** A link's click handler: a plain click loads `next` in place. */
  const navigate = (next: Q) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (!hydrated || !isPlainClick(event)) return;
    event.preventDefault();
    void load(next);
  };

  /** The filter form's submit: apply the search box now. */
  const submitSearch = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void load({ ...query, search: searchText.trim().slice(0, searchMax), page: 0 });
  };

  return {
    hydrated,
    query,
    data,
    setData,
    error,
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
