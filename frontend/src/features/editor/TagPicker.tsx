/**
 * The editor's tag picker (docs/requirements.md#post-editor): the selected tags, each removable, and the active tags
 * still available, with a filter. Selected tags that are inactive are marked and named in a
 * warning: they are not sent with the post (docs/requirements.md#validation-post).
 */
import { useId, useRef, useState } from 'react';
import { EditorTexts } from './texts';
import { MAX_TAGS, type SelectedTag, type TagResponse } from './editor-form';
import { ColourDot } from '../../components/islands/inline-style';

interface Props {
  selected: SelectedTag[];
  available: TagResponse[];
  onChange: (tagIds: number[]) => void;
  error?: string;
  disabled?: boolean;
}

const dot = (color: string | null) => (color && /^#[0-9a-fA-F]{3,8}$/.test(color) ? color : undefined);

export default function TagPicker({ selected, available, onChange, error, disabled }: Props) {
  const id = useId();
  const [filter, setFilter] = useState('');
  const filterInput = useRef<HTMLInputElement>(null);
  // The pressed chip goes away: focus moves to the filter box instead of being lost.
  const change = (tagIds: number[]) => {
    onChange(tagIds);
    filterInput.current?.focus();
  };
  const chosen = new Set(selected.map((tag) => tag.id));
  const inactive = selected.filter((tag) => !tag.active);
  const needle = filter.trim().toLowerCase();
  const offered = available.filter(
    (tag) => tag.isActive && !chosen.has(tag.id) && (!needle || tag.name.toLowerCase().includes(needle) || tag.slug.includes(needle)),
  );
  const full = selected.length >= MAX_TAGS;
  const ids = selected.map((tag) => tag.id);

  return (
    <fieldset className="space-y-3" aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">Tags</legend>
      <div>
        <h3 id={`${id}-selected`} className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
          Selected ({selected.length})
        </h3>
        {selected.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{EditorTexts.NO_TAGS_SELECTED}</p>
        ) : (
          <ul className="mt-1 flex flex-wrap gap-1.5" aria-labelledby={`${id}-selected`}>
            {selected.map((tag) => (
              <li
                key={tag.id}
                className={`inline-flex items-center gap-1 rounded-full py-0.5 pl-2.5 pr-1 text-sm ${
                  tag.active
                    ? 'bg-brand-50 text-brand-700 dark:bg-slate-800 dark:text-brand-100'
                    : 'bg-amber-50 text-amber-900 ring-1 ring-amber-300 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800'
                }`}
              >
                {dot(tag.color) && <ColourDot colour={dot(tag.color)!} />}
                {tag.name}
                {!tag.active && <span className="text-xs">(inactive)</span>}
                <button
                  type="button"
                  className="ml-0.5 inline-flex h-6 w-6 items-center justify-center rounded-full hover:bg-black/10 dark:hover:bg-white/10"
                  aria-label={`Remove tag ${tag.name}`}
                  disabled={disabled}
                  onClick={() => change(ids.filter((other) => other !== tag.id))}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div aria-live="polite">
          {inactive.length > 0 && (
            <p className="mt-2 text-sm text-amber-800 dark:text-amber-200" data-testid="inactive-tags-warning">
              {EditorTexts.inactiveTags(inactive.map((tag) => tag.name))}
            </p>
          )}
          {full && <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">{EditorTexts.tagLimit(MAX_TAGS)}</p>}
        </div>
      </div>
      <div>
        <label htmlFor={`${id}-filter`} className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">
          Available tags
        </label>
        <input
          id={`${id}-filter`}
          ref={filterInput}
          type="search"
          placeholder="Filter tags"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          disabled={disabled}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400"
        />
        {offered.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{EditorTexts.NO_TAGS_AVAILABLE}</p>
        ) : (
          <ul className="mt-2 flex max-h-48 flex-wrap gap-1.5 overflow-y-auto p-0.5" aria-label="Available tags">
            {offered.map((tag) => (
              <li key={tag.id}>
                <button
                  type="button"
                  className="inline-flex items-center gap-1 rounded-full border border-slate-300 px-2.5 py-0.5 text-sm text-slate-800 hover:bg-slate-100 disabled:opacity-50 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
                  aria-label={`Add tag ${tag.name}`}
                  disabled={disabled || full}
                  onClick={() => change([...ids, tag.id])}
                >
                  <span aria-hidden="true">+</span>
                  {tag.name}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}
