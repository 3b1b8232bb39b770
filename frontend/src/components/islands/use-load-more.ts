/**
 * 'Load more' links that work without JavaScript (a plain link to the next page) and, hydrated,
 * fetch that page's server-rendered HTML and put its items in place: the address followed next,
 * loading and the failure's text (useSubmit), and which clicks it takes over.
 */
import { useRef, useState, type MouseEvent } from 'react';
import { useSubmit } from './use-submit';

export function useLoadMore(href: string, failureText: string) {
  const [next, setNext] = useState<string | undefined>(href);
  const { busy: loading, failure: error, run } = useSubmit();
  /** A polite live region that says what was loaded. */
  const status = useRef<HTMLParagraphElement>(null);
  const announce = (text: string) => {
    if (status.current) status.current.textContent = text;
  };

  /**
   * Follows the link in place: `apply` puts the fetched page's items where `target` is and
   * returns the address after it (none on the last page). New-tab clicks keep the link.
   */
  async function loadMore(event: MouseEvent<HTMLAnchorElement>, target: HTMLElement | null, apply: (page: Document, target: HTMLElement) => string | undefined) {
    if (!next || !target || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    await run(
      async () => {
        const response = await fetch(next, { headers: { Accept: 'text/html' } });
        if (!response.ok) throw new Error(String(response.status));
        setNext(apply(new DOMParser().parseFromString(await response.text(), 'text/html'), target));
      },
      { failure: () => failureText },
    );
  }

  return { next, loading, error, loadMore, status, announce };
}
