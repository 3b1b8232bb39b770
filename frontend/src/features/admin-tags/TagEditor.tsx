/**
 * The tag editor (docs/requirements.md#tag-editor, docs/requirements.md#slugs): create or edit a tag's name, slug, description, colour, icon
 * and active flag. On create the slug follows the name while it is empty or still the old name's
 * slug; on edit it stays unless the admin changes it (it is the tag's public address; an old
 * address answers 301 to the new one).
 * Checks: name 2-100 characters ('Tag name must be between 2-100 characters'), slug 2-100
 * lowercase letters, digits and hyphens, description up to 500, a hex colour, icon up to 64; a
 * signed-out session is refused with the spec's text. Esc goes back, Ctrl/Cmd+S saves (both
 * held while saving). A badge says whether the session is authenticated.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError } from '../../lib/api/errors';
import { checkTagForm, safeColour, tagFormFrom, tagPayload, type AdminTag, type TagForm, type TagFormErrors } from './admin-tags';
import { slugAfterTitleChange, TAG_SLUG_MAX_LENGTH } from '../../../../isomorphic/slug';
import { onLogout } from '../../lib/session-browser';
import { adminErrors } from '../admin-posts';
import { errorText } from '../../lib/texts/error-text';
import { AdminTagsTexts } from './texts';
import { Alert, BusyButton, TextAreaField, TextField, useHydrated } from '../../components/islands/form-controls';
import { useKeepTyped } from '../../components/islands/keep-typed';
import { createTag, updateTag } from './tag-api';
import { charCount, trimInvisible } from '../../../../isomorphic/text';
import { useSubmit } from '../../components/islands/use-submit';

export interface TagEditorProps {
  mode: 'create' | 'edit';
  tag?: AdminTag;
  signedIn: boolean;
  /** Back to Tags and Esc go here; after a save, here with ?notice=created|updated. */
  backHref: string;
}

const FIELD_ORDER: (keyof TagForm)[] = ['name', 'slug', 'description', 'color', 'icon'];

/** Server field errors (a used name or slug is a 409 naming its field) on the field they concern. */
function serverErrors(error: unknown): TagFormErrors {
  if (!(error instanceof ApiError)) return {};
  const found: TagFormErrors = {};
  for (const field of FIELD_ORDER) {
    const message = error.field(field);
    if (message) found[field] = message;
  }
  return found;
}

export default function TagEditor({ mode, tag, signedIn, backHref }: TagEditorProps) {
  const hydrated = useHydrated();
  const keepTyped = useKeepTyped();
  const [form, setForm] = useState<TagForm>(() => tagFormFrom(tag));
  const [errors, setErrors] = useState<TagFormErrors>({});
  const { busy, failure, setFailure, run } = useSubmit();
  const [authenticated, setAuthenticated] = useState(signedIn);
  const formRef = useRef<HTMLFormElement>(null);
  const state = useRef({ busy, save: () => {} });

  useEffect(() => onLogout(() => setAuthenticated(false)), []);

  const set = <K extends keyof TagForm>(field: K, value: TagForm[K]) => {
    setForm((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  function onName(name: string) {
    setForm((current) => ({
      ...current,
      name,
      slug: mode === 'create' ? slugAfterTitleChange(current.slug, current.name, name, TAG_SLUG_MAX_LENGTH) : current.slug,
    }));
    setErrors((current) => ({ ...current, name: undefined, slug: undefined }));
  }

  function focusFirst(found: TagFormErrors) {
    const field = FIELD_ORDER.find((name) => found[name]);
    if (field) formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  }

  async function save() {
    if (busy) return;
    setFailure(undefined);
    if (!authenticated) {
      setFailure(AdminTagsTexts.AUTH_REQUIRED);
      return;
    }
    const found = checkTagForm(form);
    setErrors(found);
    if (Object.values(found).some(Boolean)) {
      focusFirst(found);
      return;
    }
    await run(
      async () => {
        if (mode === 'edit' && tag) await updateTag(tag.id, tagPayload(form));
        else await createTag(tagPayload(form));
        window.location.assign(`${backHref}?notice=${mode === 'edit' ? 'updated' : 'created'}`);
      },
      {
        keepBusy: true,
        failure: (error) => errorText(error, { ...adminErrors(AdminTagsTexts.SAVE_FAILED), status: { 401: AdminTagsTexts.AUTH_REQUIRED } }),
        onError: (error) => {
          const fields = serverErrors(error);
          setErrors(fields);
          focusFirst(fields);
        },
      },
    );
  }

  state.current = { busy, save: () => void save() };

  // Esc goes back, Ctrl/Cmd+S saves; neither while a save is running.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        if (!state.current.busy) state.current.save();
      } else if (event.key === 'Escape' && !event.defaultPrevented && !state.current.busy) {
        window.location.assign(backHref);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [backHref]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void save();
  }

  const colour = safeColour(form.color.trim());
  const badge: ReactNode = (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold ${authenticated ? 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200' : 'bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200'}`}
      data-testid="auth-badge"
    >
      <span className={`h-2 w-2 rounded-full ${authenticated ? 'bg-emerald-600' : 'bg-red-600'}`} aria-hidden="true" />
      {authenticated ? AdminTagsTexts.AUTHENTICATED : AdminTagsTexts.NOT_AUTHENTICATED}
    </span>
  );

  return (
    <form
      {...keepTyped}
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      className="card max-w-3xl space-y-5 p-6"
      aria-label={mode === 'edit' ? AdminTagsTexts.EDIT_TITLE : AdminTagsTexts.NEW_TITLE}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        {badge}
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <kbd className="rounded border border-slate-300 px-1 dark:border-slate-600">Esc</kbd> back ·{' '}
          <kbd className="rounded border border-slate-300 px-1 dark:border-slate-600">Ctrl/⌘ S</kbd> save
        </p>
      </div>
      {failure && <Alert>{failure}</Alert>}
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          label="Name"
          name="name"
          value={form.name}
          onChange={(event) => onName(event.target.value)}
          error={errors.name}
          required
          autoFocus={mode === 'create'}
        />
        <TextField
          label="Slug"
          name="slug"
          value={form.slug}
          onChange={(event) => set('slug', event.target.value)}
          error={errors.slug}
          maxLength={100}
          required
          hint={
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              {mode === 'create' ? AdminTagsTexts.SLUG_HINT_CREATE : AdminTagsTexts.SLUG_HINT_EDIT}
            </p>
          }
        />
      </div>
      <TextAreaField
        id="tag-description"
        name="description"
        label="Description"
        value={form.description}
        onChange={(value) => set('description', value)}
        error={errors.description}
        hint={`${charCount(trimInvisible(form.description))}/500`}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <div>
          <TextField
            label="Colour"
            name="color"
            value={form.color}
            onChange={(event) => set('color', event.target.value)}
            error={errors.color}
            placeholder="#3178c6"
            maxLength={7}
            hint={
              <div className="mt-2 flex items-center gap-2">
                <label htmlFor="tag-colour-picker" className="text-xs text-slate-600 dark:text-slate-400">
                  Pick a colour
                </label>
                <input
                  id="tag-colour-picker"
                  type="color"
                  value={colour && colour.length === 7 ? colour : '#4f6bed'}
                  onChange={(event) => set('color', event.target.value)}
                  className="h-8 w-12 cursor-pointer rounded border border-slate-300 dark:border-slate-700"
                />
              </div>
            }
          />
        </div>
        <TextField
          label="Icon"
          name="icon"
          value={form.icon}
          onChange={(event) => set('icon', event.target.value)}
          error={errors.icon}
          placeholder="An icon name or an emoji"
        />
      </div>
      <label className="flex items-center gap-3 text-sm">
        <input
          type="checkbox"
          name="isActive"
          checked={form.isActive}
          onChange={(event) => set('isActive', event.target.checked)}
          className="h-4 w-4"
        />
        <span>
          <span className="font-medium">Active</span>
          <span className="block text-slate-600 dark:text-slate-400">Active tags show on public pages and can be attached to posts.</span>
        </span>
      </label>
      <div className="flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-5 dark:border-slate-800">
        <a href={backHref} className="btn-secondary">
          Back to Tags
        </a>
        <BusyButton type="submit" className="btn-primary" busy={busy} disabled={!hydrated}>
          {mode === 'edit' ? 'Save Changes' : 'Create Tag'}
        </BusyButton>
      </div>
    </form>
  );
}
