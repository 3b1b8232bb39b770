/**
 * The editor's SEO section: a collapsible fieldset with the meta title and meta
 * description (counters against what search engines show, 60 and 145 characters; the inputs stop
 * at the API's limits), the canonical address, noindex, and the social image (empty: the
 * featured image), with a live preview of the search result and of the social card. Every field
 * is optional: empty means the post's own title, excerpt, address and thumbnail.
 */
import { useEffect, useState } from 'react';
import { FieldFrame as Field } from '../../components/islands/form-controls';
import { LIMITS, RECOMMENDED, type EditorForm, type SeoField } from './editor-form';
import { PublishingTexts as T } from './texts';
import { markdownText, truncateForSearch } from './seo-preview';

interface Props {
  open: boolean;
  onToggle: (open: boolean) => void;
  form: EditorForm;
  errors: Partial<Record<SeoField | 'title', string>>;
  onChange: (patch: Partial<EditorForm>, field: SeoField | undefined) => void;
  fieldId: (field: SeoField) => string;
  inputClass: (field: SeoField) => string;
  disabled: boolean;
}

export default function SeoSection({ open, onToggle, form, errors, onChange, fieldId, inputClass, disabled }: Props) {
  // The site's address is known in the browser only (the server's HTML and the hydrated one agree on '').
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(window.location.origin), []);

  const title = form.metaTitle.trim() || form.title.trim() || 'Untitled post';
  const description = form.metaDescription.trim() || form.excerpt.trim() || markdownText(form.content);
  const url = form.canonicalUrl.trim() || `${origin}/blog/${form.slug.trim() || 'your-post'}`;
  const image = form.socialImage.trim() || form.featuredImage.trim();
  const site = (() => {
    try {
      return new URL(url).host;
    } catch {
      return origin ? new URL(origin).host : '';
    }
  })();

  const describe = (field: SeoField, hint: string) => [hint, errors[field] ? `${fieldId(field)}-error` : ''].filter(Boolean).join(' ');
  const hint = (field: SeoField, text: string) => (
    <p id={`${fieldId(field)}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
      {text}
    </p>
  );
  const counter = (field: 'metaTitle' | 'metaDescription', fallback: string) => {
    const length = [...form[field]].length;
    const over = length > RECOMMENDED[field];
    return (
      <p id={`${fieldId(field)}-hint`} className="mt-1 flex flex-wrap justify-between gap-x-2 text-xs text-slate-600 dark:text-slate-400">
        <span>{fallback}</span>
        <span className={over ? 'font-semibold text-amber-800 dark:text-amber-300' : ''} data-testid={`${field}-counter`}>
          {T.counter(length, RECOMMENDED[field])}
          {over && <span className="block">{T.overRecommended(RECOMMENDED[field])}</span>}
        </span>
      </p>
    );
  };

  return (
    <details className="card p-4" data-testid="seo-section" open={open} onToggle={(event) => onToggle(event.currentTarget.open)}>
      <summary className="cursor-pointer rounded text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
        {T.SEO}
      </summary>
      <fieldset className="mt-4 space-y-4" disabled={disabled}>
        <legend className="sr-only">Search and social settings</legend>
        <Field id={fieldId('metaTitle')} label="Meta title" error={errors.metaTitle} hint={counter('metaTitle', T.SEO_DEFAULT_TITLE)}>
          <input
            id={fieldId('metaTitle')}
            className={inputClass('metaTitle')}
            value={form.metaTitle}
            maxLength={LIMITS.metaTitle}
            onChange={(event) => onChange({ metaTitle: event.target.value }, 'metaTitle')}
            aria-invalid={errors.metaTitle ? true : undefined}
            aria-describedby={describe('metaTitle', `${fieldId('metaTitle')}-hint`)}
            autoComplete="off"
          />
        </Field>
        <Field
          id={fieldId('metaDescription')}
          label="Meta description"
          error={errors.metaDescription}
          hint={counter('metaDescription', T.SEO_DEFAULT_DESCRIPTION)}
        >
          <textarea
            id={fieldId('metaDescription')}
            rows={3}
            className={inputClass('metaDescription')}
            value={form.metaDescription}
            maxLength={LIMITS.metaDescription}
            onChange={(event) => onChange({ metaDescription: event.target.value }, 'metaDescription')}
            aria-invalid={errors.metaDescription ? true : undefined}
            aria-describedby={describe('metaDescription', `${fieldId('metaDescription')}-hint`)}
          />
        </Field>
        <Field
          id={fieldId('canonicalUrl')}
          label="Canonical URL"
          error={errors.canonicalUrl}
          hint={hint('canonicalUrl', T.SEO_DEFAULT_CANONICAL)}
        >
          <input
            id={fieldId('canonicalUrl')}
            type="url"
            inputMode="url"
            className={inputClass('canonicalUrl')}
            value={form.canonicalUrl}
            maxLength={LIMITS.canonicalUrl}
            placeholder="https://"
            onChange={(event) => onChange({ canonicalUrl: event.target.value }, 'canonicalUrl')}
            aria-invalid={errors.canonicalUrl ? true : undefined}
            aria-describedby={describe('canonicalUrl', `${fieldId('canonicalUrl')}-hint`)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
        <label className="flex items-start gap-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 h-4 w-4 rounded border-slate-300"
            checked={form.noindex}
            onChange={(event) => onChange({ noindex: event.target.checked }, undefined)}
          />
          <span>
            <span className="font-medium">Hide from search engines (noindex)</span>
            <span className="block text-xs text-slate-600 dark:text-slate-400">The post stays public but leaves the sitemap.</span>
          </span>
        </label>
        <Field
          id={fieldId('socialImage')}
          label="Social image URL"
          error={errors.socialImage}
          hint={hint('socialImage', T.SEO_DEFAULT_IMAGE)}
        >
          <input
            id={fieldId('socialImage')}
            className={inputClass('socialImage')}
            value={form.socialImage}
            maxLength={LIMITS.socialImage}
            placeholder={form.featuredImage || 'https://'}
            onChange={(event) => onChange({ socialImage: event.target.value }, 'socialImage')}
            aria-invalid={errors.socialImage ? true : undefined}
            aria-describedby={describe('socialImage', `${fieldId('socialImage')}-hint`)}
            autoComplete="off"
            spellCheck={false}
          />
        </Field>
      </fieldset>

      <div className="mt-5 space-y-4">
        <section
          aria-label="Search result preview"
          data-testid="search-preview"
          className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
        >
          <p className="text-xs font-semibold uppercase tracking-wide text-slate-600 dark:text-slate-400">Search result</p>
          <p className="mt-2 truncate text-xs text-slate-700 dark:text-slate-300" data-testid="search-preview-url">
            {url}
          </p>
          <p className="text-base font-medium text-blue-800 underline-offset-2 dark:text-blue-300" data-testid="search-preview-title">
            {truncateForSearch(title, RECOMMENDED.metaTitle)}
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="search-preview-description">
            {truncateForSearch(description, RECOMMENDED.metaDescription)}
          </p>
          {form.noindex && <p className="mt-1 text-xs font-semibold">Not shown in search results (noindex).</p>}
        </section>
        <section
          aria-label="Social card preview"
          data-testid="social-preview"
          className="overflow-hidden rounded-lg border border-slate-200 dark:border-slate-700"
        >
          {image ? (
            <img src={image} alt="" className="aspect-[1.91/1] w-full bg-slate-100 object-cover dark:bg-slate-800" loading="lazy" />
          ) : (
            <div className="flex aspect-[1.91/1] items-center justify-center bg-slate-100 text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-400">
              No image
            </div>
          )}
          <div className="p-3">
            <p className="text-xs uppercase text-slate-600 dark:text-slate-400">{site}</p>
            <p className="font-semibold" data-testid="social-preview-title">
              {truncateForSearch(title, 90)}
            </p>
            <p className="text-sm text-slate-700 dark:text-slate-300">{truncateForSearch(description, 120)}</p>
          </div>
        </section>
      </div>
    </details>
  );
}
