/**
 * The one pager of every paged list (docs/requirements.md#pager, docs/requirements.md#constants-paging, docs/requirements.md#validation-page-jump): Previous/Next (and,
 * optionally, First/Last), a window of 5 page links around the current page and, above 10 pages,
 * a go-to-page box that takes a page between 1 and the total. Every control is a real link or a
 * GET form, so the pager works rendered on the server without JavaScript (the reader's lists,
 * search and My Posts use it so, from .astro pages); inside an island `onNavigate` takes the
 * clicks over (no page load) and the jump box says when the number is out of range. Addresses
 * follow lib/paging (1-based ?page=, none on the first page).
 */
import { useId, useState, type FormEvent, type MouseEvent } from 'react';
import { pageHref, pageWindow, PAGE_PARAM } from '../../lib/paging';
import { useKeepTyped } from './keep-typed';

/** The go-to-page box's check (docs/requirements.md#validation-page-jump): a whole number from 1 to the total. */
export function jumpProblem(value: string, totalPages: number): string | undefined {
  const page = Number(value.trim());
  if (!value.trim() || !Number.isInteger(page) || page < 1 || page > totalPages) return `Enter a page between 1 and ${totalPages}.`;
  return undefined;
}

export const JUMP_BOX_ABOVE = 10;

interface PagerLinks {
  /** The address of a page (0-based), for the links. */
  hrefFor: (page: number) => string;
  /** Where the jump box's GET form goes, and the query values it keeps (the page field is its own). */
  action: string;
  keep?: Record<string, string>;
}

type PagerProps = (PagerLinks | { /** The list's address (path and query): the links keep its other query values. */ address: string }) & {
  /** The current page, 0-based. */
  page: number;
  totalPages: number;
  /** The list's name ('Posts'): the navigation is labelled '<label> pages'. */
  label: string;
  /** First and Last buttons beside Previous and Next. */
  firstLast?: boolean;
  /** Inside an island: called instead of following a link. */
  onNavigate?: (page: number) => void;
  /** The space above the pager (the reader's pages leave more). */
  spacing?: 'mt-6' | 'mt-8';
};

/** The links, the jump box's action and the query values it keeps, from a list's address. */
function linksOf(address: string): PagerLinks {
  const url = new URL(address, 'http://inkwell.invalid');
  const keep = Object.fromEntries([...url.searchParams.entries()].filter(([name]) => name !== PAGE_PARAM));
  return { hrefFor: (target) => pageHref(address, target), action: url.pathname, keep };
}

const LINK = 'inline-flex h-9 min-w-9 items-center justify-center rounded-lg border px-3 text-sm font-medium';
const IDLE =
  'border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800';
const OFF = 'cursor-not-allowed border-slate-200 text-slate-500 dark:border-slate-800 dark:text-slate-400';
const CURRENT = 'border-brand-600 bg-brand-600 text-white hover:bg-brand-700';

export default function Pager(props: PagerProps) {
  const { page, totalPages, label, firstLast = false, onNavigate, spacing = 'mt-6' } = props;
  const { hrefFor, action, keep = {} } = 'address' in props ? linksOf(props.address) : props;
  const jumpId = useId();
  const [jump, setJump] = useState('');
  const keepTyped = useKeepTyped();
  const [problem, setProblem] = useState<string>();
  if (totalPages <= 1) return null;

  const follow = (target: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onNavigate || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return;
    event.preventDefault();
    onNavigate(target);
  };

  const step = (target: number, text: string, enabled: boolean, rel?: string) => (
    <li>
      {enabled ? (
        <a href={hrefFor(target)} className={`${LINK} ${IDLE}`} rel={rel} onClick={follow(target)}>
          {text}
        </a>
      ) : (
        <span className={`${LINK} ${OFF}`} aria-disabled="true">
          {text}
        </span>
      )}
    </li>
  );

  function submitJump(event: FormEvent<HTMLFormElement>) {
    const found = jumpProblem(jump, totalPages);
    setProblem(found);
    if (found) {
      event.preventDefault();
      return;
    }
    if (onNavigate) {
      event.preventDefault();
      setJump('');
      onNavigate(Number(jump) - 1);
    }
  }

  return (
    <nav aria-label={`${label} pages`} className={`${spacing} flex flex-wrap items-center justify-between gap-4`}>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Page {page + 1} of {totalPages}
      </p>
      <ul className="flex flex-wrap items-center gap-2">
        {firstLast && step(0, 'First', page > 0)}
        {step(page - 1, 'Previous', page > 0, 'prev')}
        {pageWindow(page, totalPages).map((target) => (
          <li key={target}>
            <a
              href={hrefFor(target)}
              aria-current={target === page ? 'page' : undefined}
              aria-label={`Page ${target + 1}`}
              className={`${LINK} ${target === page ? CURRENT : IDLE}`}
              onClick={follow(target)}
            >
              {target + 1}
            </a>
          </li>
        ))}
        {step(page + 1, 'Next', page < totalPages - 1, 'next')}
        {firstLast && step(totalPages - 1, 'Last', page < totalPages - 1)}
      </ul>
      {totalPages > JUMP_BOX_ABOVE && (
        <form
          {...keepTyped}
          method="get"
          action={action}
          className="flex flex-wrap items-center gap-2"
          onSubmit={submitJump}
          noValidate={Boolean(onNavigate)}
        >
          {Object.entries(keep).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <label htmlFor={jumpId} className="text-sm font-medium">
            Go to page
          </label>
          <input
            id={jumpId}
            name="page"
            type="number"
            inputMode="numeric"
            min={1}
            max={totalPages}
            required
            value={jump}
            onChange={(event) => {
              setJump(event.target.value);
              setProblem(undefined);
            }}
            aria-invalid={problem ? true : undefined}
            aria-describedby={`${jumpId}-hint`}
            className="w-20 rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm dark:border-slate-700 dark:bg-slate-950"
          />
          <button type="submit" className="btn-secondary px-3 py-1.5">
            Go
          </button>
          <span
            id={`${jumpId}-hint`}
            className={problem ? 'w-full text-sm text-red-600 dark:text-red-400' : 'sr-only'}
            role={problem ? 'alert' : undefined}
          >
            {problem ?? `1 to ${totalPages}`}
          </span>
        </form>
      )}
    </nav>
  );
}
