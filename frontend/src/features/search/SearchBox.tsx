import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useKeepTyped } from '../../components/islands/keep-typed';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import { normaliseSearchQuery } from '../../../../isomorphic/search-page-address';
import type { SearchHit } from './search';
import { SearchTexts } from './texts';

/** Wait after the last key before asking for suggestions. */
const DEBOUNCE_MS = 200;
const SUGGESTION_COUNT = 5;
/** The API refuses longer queries (400): no suggestions for them, the search page says why. */
const MAX_QUERY_LENGTH = 200;

type Suggestion = Pick<SearchHit, 'id' | 'slug' | 'title'>;

/**
 * The header's search box. Server-rendered it is a plain GET form to /search;
 * hydrated, it suggests the top hits' titles as you type: one request 200 ms after the last key,
 * the previous one aborted by the next key; a combobox (ARIA 1.2 pattern: the focus stays in the
 * field, `aria-activedescendant` names the highlighted option). ArrowDown/ArrowUp move through
 * the options, Enter on one opens that post (otherwise Enter submits the form), Escape closes.
 */
export default function SearchBox() {
  const keepTyped = useKeepTyped();
  const id = useId();
  const inputId = `${id}-q`;
  const listId = `${id}-suggestions`;
  const optionId = (index: number) => `${id}-option-${index}`;
  const [query, setQuery] = useState('');
  const [suggestions, setSuggestions] = useState<Suggestion[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [status, setStatus] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inflight = useRef<AbortController | undefined>(undefined);

  const cancel = () => {
    clearTimeout(timer.current);
    inflight.current?.abort();
    inflight.current = undefined;
  };
  useEffect(() => cancel, []);

  const close = () => {
    setOpen(false);
    setActive(-1);
  };

  function suggest(value: string) {
    cancel();
    const q = normaliseSearchQuery(value);
    if (!q || q.length > MAX_QUERY_LENGTH) {
      setSuggestions([]);
      setStatus('');
      close();
      return;
    }
    timer.current = setTimeout(() => {
      const request = new AbortController();
      inflight.current = request;
      unwrap(browserApi().GET('/api/v1/blog/search', { params: { query: { q, page: 0, size: SUGGESTION_COUNT } }, signal: request.signal }))
        .then((found) => {
          if (request.signal.aborted) return;
          const hits = found.content.slice(0, SUGGESTION_COUNT).map(({ id: postId, slug, title }) => ({ id: postId, slug, title }));
          setSuggestions(hits);
          setActive(-1);
          setOpen(hits.length > 0);
          setStatus(SearchTexts.suggestionCount(hits.length));
        })
        .catch(() => {
          if (request.signal.aborted) return;
          setSuggestions([]);
          close();
          setStatus(SearchTexts.SUGGESTIONS_FAILED);
        })
        .finally(() => {
          if (inflight.current === request) inflight.current = undefined;
        });
    }, DEBOUNCE_MS);
  }

  const openPost = (suggestion: Suggestion) => {
    cancel();
    window.location.assign(`/blog/${encodeURIComponent(suggestion.slug)}`);
  };

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    const count = suggestions.length;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        if (count === 0) return;
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : -1;
        if (!open) {
          setOpen(true);
          setActive(step === 1 ? 0 : count - 1);
          return;
        }
        setActive((current) => (current === -1 ? (step === 1 ? 0 : count - 1) : (current + step + count) % count));
        return;
      }
      case 'Enter':
        if (open && active >= 0 && active < count) {
          event.preventDefault();
          openPost(suggestions[active]);
        }
        // Otherwise the form submits to /search, as without JavaScript.
        return;
      case 'Escape':
        if (open) {
          event.preventDefault();
          close();
        }
        return;
    }
  }

  const expanded = open && suggestions.length > 0;
  return (
    <form
      {...keepTyped}
      method="get"
      action="/search"
      role="search"
      aria-label="Site search"
      className="relative flex items-center"
      onSubmit={cancel}
    >
      <label htmlFor={inputId} className="sr-only">
        Search the blog
      </label>
      <input
        id={inputId}
        name="q"
        type="search"
        value={query}
        maxLength={MAX_QUERY_LENGTH}
        placeholder="Search the blog"
        autoComplete="off"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        className="h-9 w-44 rounded-l-lg border border-r-0 border-slate-300 bg-white px-3 text-sm placeholder:text-slate-500 xl:w-56 dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400"
        onChange={(event) => {
          setQuery(event.target.value);
          suggest(event.target.value);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
        onFocus={() => setOpen(suggestions.length > 0 && normaliseSearchQuery(query) !== '')}
      />
      <button
        type="submit"
        className="inline-flex h-9 w-9 items-center justify-center rounded-r-lg border border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800"
        aria-label="Search"
      >
        <svg className="h-4 w-4" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
          <circle cx="11" cy="11" r="7" />
          <path d="m20 20-3.5-3.5" />
        </svg>
      </button>
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggested posts"
        hidden={!expanded}
        className="absolute right-0 top-full z-40 mt-1 w-72 max-w-[calc(100vw-1rem)] overflow-hidden rounded-lg border border-slate-200 bg-white py-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        {suggestions.map((suggestion, index) => (
          // The field takes the keys for the list (arrows move aria-activedescendant, Enter opens): the option only takes the pointer.
          // eslint-disable-next-line jsx-a11y/click-events-have-key-events
          <li
            key={suggestion.id}
            id={optionId(index)}
            role="option"
            aria-selected={index === active}
            className={`cursor-pointer px-3 py-2 text-sm ${index === active ? 'bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100' : 'text-slate-700 dark:text-slate-200'}`}
            // Keeps the focus in the field, so its blur does not close the list before the click.
            onMouseDown={(event) => event.preventDefault()}
            onMouseEnter={() => setActive(index)}
            onClick={() => openPost(suggestion)}
          >
            <span className="line-clamp-2">{suggestion.title}</span>
          </li>
        ))}
      </ul>
      {/* A live region without role="status": on every page, beside the page's own status notice. */}
      <span className="sr-only" aria-live="polite" aria-atomic="true" data-search-status>
        {status}
      </span>
    </form>
  );
}
