/**
 * The post editor (docs/requirements.md#post-editor, docs/requirements.md#data-post, docs/requirements.md#validation-post), shared by the
 * author screens and the admin post screens; the only island of its page (`client:load`).
 *
 * - Title, slug (follows the title while empty or still the old title's slug), excerpt, Markdown
 *   content with a toolbar and a Write/Rendered toggle (the server renders it), the featured image
 *   (ThumbnailField), tags (TagPicker), and in admin mode the status and Featured. The Write /
 *   Rendered toggle is named so that 'Preview' stays the one button of that name.
 * - Save Draft (disabled without a title, while saving, or signed out) checks in the spec's order
 *   and saves through the author endpoints (always a draft, no status) or the admin ones.
 *   Ctrl/Cmd+S saves, Esc goes back; both wait while a save runs.
 * - Nothing typed is lost: a local copy per user and post (localStorage) is written a moment after
 *   each change, offered back on the next visit when newer than the post, removed after a save;
 *   leaving with unsaved changes asks first (beforeunload).
 * - Author mode: after a save the notice says the post is a draft to submit, with Submit for
 *   review. Admin mode: a save goes to `savedHref?notice=created|updated`.
 * - Every save sends the version the editor holds; a 409 'changed elsewhere' opens the
 *   conflict dialog (keep theirs, keep mine, compare), never a silent overwrite. Autosave: 5 s
 *   after the last change, for DRAFT and REJECTED posts (and an author's new post once it has a
 *   title and content), with a role="status" line ('Saving…', 'Saved · 3:04 PM GMT+7', 'Not
 *   saved, retrying' with a growing delay on network and server failures); it never submits nor
 *   changes the status, and the local copy stays the fallback offline. The History panel lists,
 *   opens, compares and restores revisions; the SEO section edits the post's search and social
 *   fields with live previews.
 * - A featured image chosen but not uploaded is uploaded by the save (progress in the
 *   field and the status line); when it cannot be, the save stops with a notice and sends nothing.
 */
import { useId, useRef, useState } from 'react';
import { siteZoneName } from '../../lib/dates';
import { EditorTexts, PublishingTexts } from './texts';
import { Alert, FieldFrame as Field, Spinner, useHydrated } from '../../components/islands/form-controls';
import { useKeepTyped } from '../../components/islands/keep-typed';
import type { UploadedImage } from './editor-api';
import {
  LIMITS,
  STATUS_LABELS,
  statusOptions,
  type EditorField,
  type EditorForm,
  type PostResponse,
  type SeoField,
  type TagResponse,
} from './editor-form';
import MarkdownToolbar, { applyFormat, shortcutAction } from './MarkdownToolbar';
import PostInfoCard, { useDateTime } from './PostInfoCard';
import { PostStatsLine } from '../analytics';
import PreviewModal from './PreviewModal';
import TagPicker from './TagPicker';
import ThumbnailField from './ThumbnailField';
import { usePreview } from './use-preview';
import ConflictDialog from './ConflictDialog';
import HistoryPanel from './HistoryPanel';
import SeoSection from './SeoSection';
import { saveStateText, useEditorSession, type FocusTarget } from './use-editor-session';
import { countNoun, Nouns } from '../../lib/texts/nouns';
import '../../styles/post-prose.css';

export type { PostResponse, TagResponse } from './editor-form';
export { newDraftKey, postDraftKey } from './local-draft';

export interface PostEditorProps {
  mode: 'author' | 'admin';
  /** An existing post from GET /api/v1/blog/posts/{id}; none for a new post. */
  post?: PostResponse;
  /** Tags for the picker (active and inactive; inactive selected ones are warned about and not sent). */
  availableTags: TagResponse[];
  /** False: the 'Authentication required...' warning, Save disabled. */
  signedIn: boolean;
  /** Back to Posts, Esc. */
  backHref: string;
  /** Where a save leads: admin mode goes there (with ?notice=created|updated); author mode links to it, and goes there after Submit for review. */
  savedHref: string;
  /** The reader-style preview page of the saved post, if any. */
  previewHref?: string;
  /** The edit page of a saved post, '{id}' standing for its id (e.g. '/author/posts/{id}/edit'): after a new post's first save the address becomes it, so a reload opens the saved post. */
  editHref?: string;
  /**
   * The signed-in user's id: the unsaved local copy is kept under newDraftKey(userId) for a new
   * post and postDraftKey(userId, id) for a saved one, so accounts sharing a browser never get
   * each other's text offered back.
   */
  userId: number;
  /**
   * The page's heading, when the editor shows it: `heading` for a new post, `savedHeading` once it
   * is saved (a new post's first save turns the page into its edit page: heading, document title
   * and address).
   */
  heading?: string;
  savedHeading?: string;
}

const INPUT =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400';
const INPUT_ERROR = 'border-red-500 focus:border-red-500 focus:ring-red-500/30 dark:border-red-500';

const SEO_FIELDS: EditorField[] = ['metaTitle', 'metaDescription', 'canonicalUrl', 'socialImage'];

export default function PostEditor({
  mode,
  post: initialPost,
  availableTags,
  signedIn,
  backHref,
  savedHref,
  previewHref,
  editHref,
  userId,
  heading,
  savedHeading,
}: PostEditorProps) {
  const id = useId();
  const fieldId = (field: EditorField) => `${id}-${field}`;
  const hydrated = useHydrated();
  const keepTyped = useKeepTyped();
  const dateTime = useDateTime();

  const [view, setView] = useState<'write' | 'preview'>('write');
  const [previewOpen, setPreviewOpen] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const [seoOpen, setSeoOpen] = useState(false);
  const content = useRef<HTMLTextAreaElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  /** After a failed check or save: focus on the first field at fault, else on the notice. */
  function focusField(field: FocusTarget) {
    if (field === 'requested') {
      window.requestAnimationFrame(() => document.getElementById(`${id}-requested`)?.focus());
      return;
    }
    if (field === 'content') setView('write');
    if (field && field !== 'auth' && SEO_FIELDS.includes(field)) setSeoOpen(true);
    window.requestAnimationFrame(() => (field && field !== 'auth' ? document.getElementById(fieldId(field)) : noticeRef.current)?.focus());
  }

  const session = useEditorSession({
    mode,
    initialPost,
    availableTags,
    signedIn,
    hydrated,
    backHref,
    savedHref,
    editHref,
    userId,
    heading,
    savedHeading,
    focus: focusField,
  });
  const {
    post,
    form,
    errors,
    notice,
    saving,
    submitting,
    working,
    dirty,
    tags,
    offer,
    saveState,
    conflict,
    requestedAt,
    requestedError,
    canSubmit,
    update,
  } = session;
  const inlinePreview = usePreview(form.content, view === 'preview');
  const admin = mode === 'admin';

  function openPreview() {
    if (!form.title.trim() || !form.content.trim()) {
      session.setNotice({ kind: 'error', text: EditorTexts.PREVIEW_REQUIRES });
      focusField('auth');
      return;
    }
    setPreviewOpen(true);
  }

  // ---- view ----------------------------------------------------------------------------------------

  const canSave = hydrated && signedIn && !!form.title.trim() && !working;
  const describe = (field: EditorField, hint?: string) =>
    [errors[field] ? `${fieldId(field)}-error` : '', hint ?? ''].filter(Boolean).join(' ') || undefined;
  const saveLabel = admin && form.status !== 'DRAFT' ? 'Save Post' : 'Save Draft';

  return (
    <div {...keepTyped} className="space-y-6" data-testid="post-editor" data-hydrated={hydrated || undefined}>
      {heading && <h1 className="font-serif text-3xl font-bold">{post && savedHeading ? savedHeading : heading}</h1>}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <a
          href={backHref}
          className="btn-ghost -ml-2"
          onClick={(event) => {
            if (working) {
              event.preventDefault();
              return;
            }
            session.beforeLeave();
          }}
          aria-disabled={working || undefined}
        >
          <span aria-hidden="true">←</span> Back to Posts
        </a>
        <div className="flex flex-wrap items-center gap-2">
          {/* Always rendered (a live region that appears is not announced), empty until a save. */}
          <span role="status" className="text-xs text-slate-600 dark:text-slate-400" data-testid="save-status">
            {saveStateText(saveState)}
          </span>
          {dirty && hydrated && saveState.kind !== 'saving' && (
            <span className="text-xs text-slate-600 dark:text-slate-400">{EditorTexts.UNSAVED_CHANGES}</span>
          )}
          <button type="button" className="btn-secondary" onClick={openPreview} disabled={!hydrated} aria-haspopup="dialog">
            Preview
          </button>
          {post && (
            <button
              type="button"
              className="btn-secondary"
              onClick={() => setHistoryOpen(true)}
              disabled={!hydrated || working}
              aria-haspopup="dialog"
            >
              {PublishingTexts.HISTORY}
            </button>
          )}
          <button
            type="button"
            className="btn-primary"
            onClick={() => void session.save()}
            disabled={!canSave}
            aria-keyshortcuts="Control+S Meta+S"
          >
            {saving && <Spinner />}
            {saveLabel}
          </button>
        </div>
      </div>

      {!signedIn && <Alert>{EditorTexts.AUTH_REQUIRED}</Alert>}

      {offer && (
        <div
          role="alertdialog"
          aria-labelledby={`${id}-restore-title`}
          aria-describedby={`${id}-restore-text`}
          className="rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100"
        >
          <p id={`${id}-restore-title`} className="font-semibold">
            {EditorTexts.RESTORE_TITLE}
          </p>
          <p id={`${id}-restore-text`} className="mt-1">
            {EditorTexts.restoreMessage(dateTime(new Date(offer.savedAt).toISOString()))}
          </p>
          <div className="mt-3 flex gap-2">
            <button type="button" className="btn-primary" onClick={session.restore}>
              Restore
            </button>
            <button type="button" className="btn-secondary" onClick={session.discardOffer}>
              Discard
            </button>
          </div>
        </div>
      )}

      <div ref={noticeRef} tabIndex={-1} aria-live="polite" className="outline-none empty:hidden">
        {notice && (
          <Alert kind={notice.kind}>
            {notice.title && <strong className="block">{notice.title}</strong>}
            <span data-testid="editor-notice">{notice.text}</span>
            {notice.extra && <span className="mt-1 block">{notice.extra}</span>}
            {notice.kind === 'success' && mode === 'author' && (
              <span className="mt-2 block">
                <a href={savedHref} className="font-medium underline" onClick={session.beforeLeave}>
                  Go to My Posts
                </a>
              </span>
            )}
          </Alert>
        )}
      </div>

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="space-y-5">
          <Field id={fieldId('title')} label="Title" error={errors.title}>
            <input
              id={fieldId('title')}
              className={`${INPUT} text-base ${errors.title ? INPUT_ERROR : ''}`}
              value={form.title}
              onChange={(event) => session.changeTitle(event.target.value)}
              aria-invalid={errors.title ? true : undefined}
              aria-describedby={describe('title')}
              autoComplete="off"
            />
          </Field>
          <Field
            id={fieldId('slug')}
            label="Slug"
            error={errors.slug}
            hint={
              <p id={`${fieldId('slug')}-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                Lowercase letters, numbers and hyphens. Follows the title until you edit it.
              </p>
            }
          >
            <input
              id={fieldId('slug')}
              className={`${INPUT} font-mono ${errors.slug ? INPUT_ERROR : ''}`}
              value={form.slug}
              maxLength={LIMITS.slug}
              onChange={(event) => update({ slug: event.target.value }, 'slug')}
              aria-invalid={errors.slug ? true : undefined}
              aria-describedby={describe('slug', `${fieldId('slug')}-hint`)}
              autoComplete="off"
              spellCheck={false}
            />
          </Field>
          <Field id={fieldId('excerpt')} label="Excerpt" error={errors.excerpt}>
            <textarea
              id={fieldId('excerpt')}
              rows={3}
              className={`${INPUT} ${errors.excerpt ? INPUT_ERROR : ''}`}
              value={form.excerpt}
              onChange={(event) => update({ excerpt: event.target.value }, 'excerpt')}
              aria-invalid={errors.excerpt ? true : undefined}
              aria-describedby={describe('excerpt')}
            />
          </Field>

          <div>
            <div className="mb-1 flex flex-wrap items-end justify-between gap-2">
              <label htmlFor={fieldId('content')} className="text-sm font-medium">
                Content
              </label>
              <div
                className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-700"
                role="group"
                aria-label="Content view"
              >
                {(['write', 'preview'] as const).map((option) => (
                  <button
                    key={option}
                    type="button"
                    aria-pressed={view === option}
                    onClick={() => setView(option)}
                    className={`rounded-md px-3 py-1 text-xs font-medium ${view === option ? 'bg-brand-600 text-white' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800'}`}
                  >
                    {option === 'write' ? 'Write' : 'Rendered'}
                  </button>
                ))}
              </div>
            </div>
            <div hidden={view !== 'write'}>
              <MarkdownToolbar
                textarea={content}
                textareaId={fieldId('content')}
                onChange={(value) => update({ content: value }, 'content')}
                disabled={!hydrated}
              />
              <textarea
                id={fieldId('content')}
                ref={content}
                rows={20}
                className={`${INPUT} rounded-t-none font-mono leading-relaxed ${errors.content ? INPUT_ERROR : ''}`}
                value={form.content}
                maxLength={LIMITS.content}
                onChange={(event) => update({ content: event.target.value }, 'content')}
                onKeyDown={(event) => {
                  const action = shortcutAction(event);
                  if (!action) return;
                  event.preventDefault();
                  applyFormat(event.currentTarget, action, (value) => update({ content: value }, 'content'));
                }}
                aria-invalid={errors.content ? true : undefined}
                aria-describedby={describe('content')}
                placeholder="Write your post in Markdown..."
              />
            </div>
            {view === 'preview' && (
              <div
                className="min-h-40 rounded-lg border border-slate-300 p-4 dark:border-slate-700"
                aria-live="polite"
                aria-busy={inlinePreview.kind === 'loading'}
                data-testid="content-preview"
              >
                {inlinePreview.kind === 'idle' ? (
                  <p className="text-sm text-slate-600 dark:text-slate-400">{EditorTexts.PREVIEW_EMPTY}</p>
                ) : inlinePreview.kind === 'error' ? (
                  <Alert>{inlinePreview.message}</Alert>
                ) : inlinePreview.kind === 'loading' && !inlinePreview.last ? (
                  <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
                    <Spinner /> {EditorTexts.PREVIEW_LOADING}
                  </p>
                ) : (
                  <>
                    <p className="mb-3 text-xs text-slate-600 dark:text-slate-400" data-testid="content-preview-figures">
                      {countNoun((inlinePreview.kind === 'ready' ? inlinePreview.preview : inlinePreview.last!).wordCount, Nouns.WORD)} ·{' '}
                      {(inlinePreview.kind === 'ready' ? inlinePreview.preview : inlinePreview.last!).readingTime} min read
                    </p>
                    <div
                      className="post-prose"
                      dangerouslySetInnerHTML={{
                        __html: (inlinePreview.kind === 'ready' ? inlinePreview.preview : inlinePreview.last!).html,
                      }}
                    />
                  </>
                )}
              </div>
            )}
            {errors.content && (
              <p id={`${fieldId('content')}-error`} className="mt-1 text-sm text-red-600 dark:text-red-400">
                {errors.content}
              </p>
            )}
          </div>
          <SeoSection
            open={seoOpen}
            onToggle={setSeoOpen}
            form={form}
            errors={errors}
            onChange={update}
            fieldId={(field: SeoField) => fieldId(field)}
            inputClass={(field: SeoField) => `${INPUT} ${errors[field] ? INPUT_ERROR : ''}`}
            disabled={!hydrated}
          />
        </div>

        <aside className="space-y-5" aria-label="Post settings">
          {admin && (
            <div className="card space-y-4 p-4">
              <Field id={fieldId('status')} label="Status" error={errors.status}>
                <select
                  id={fieldId('status')}
                  className={`${INPUT} ${errors.status ? INPUT_ERROR : ''}`}
                  value={form.status}
                  onChange={(event) => update({ status: event.target.value as EditorForm['status'] }, 'status')}
                  aria-describedby={describe('status')}
                >
                  {statusOptions(post).map((status) => (
                    <option key={status} value={status}>
                      {STATUS_LABELS[status]}
                    </option>
                  ))}
                </select>
              </Field>
              <label className="flex items-center gap-2 text-sm font-medium">
                <input
                  type="checkbox"
                  className="h-4 w-4 rounded border-slate-300"
                  checked={form.isFeatured}
                  onChange={(event) => update({ isFeatured: event.target.checked })}
                />
                Featured post
              </label>
            </div>
          )}
          <div className="card p-4">
            <ThumbnailField
              value={form.featuredImage}
              savedValue={post?.thumbnail ?? ''}
              onChange={(url) => update({ featuredImage: url }, 'featuredImage')}
              onUploaded={(image: UploadedImage) => session.rememberUpload(image)}
              onDiscard={session.discardImage}
              onPending={session.setPendingImage}
              signedIn={signedIn}
              disabled={working}
              error={errors.featuredImage}
            />
          </div>
          <div className="card p-4">
            <TagPicker
              selected={tags}
              available={availableTags}
              onChange={(tagIds) => update({ tagIds }, 'tags')}
              error={errors.tags}
              disabled={working}
            />
          </div>
          {canSubmit && (
            <div className="card space-y-2 p-4">
              <Field
                id={`${id}-requested`}
                label={`${PublishingTexts.REQUESTED_TIME} (${siteZoneName(new Date())})`}
                error={requestedError}
                hint={
                  <p id={`${id}-requested-hint`} className="mt-1 text-xs text-slate-600 dark:text-slate-400">
                    {PublishingTexts.REQUESTED_TIME_HINT}
                  </p>
                }
              >
                <input
                  id={`${id}-requested`}
                  type="datetime-local"
                  className={`${INPUT} ${requestedError ? INPUT_ERROR : ''}`}
                  value={requestedAt}
                  onChange={(event) => session.setRequestedAt(event.target.value)}
                  disabled={working}
                  aria-invalid={requestedError ? true : undefined}
                  aria-describedby={[`${id}-requested-hint`, requestedError ? `${id}-requested-error` : ''].filter(Boolean).join(' ')}
                />
              </Field>
              <button
                type="button"
                className="btn-primary w-full"
                onClick={() => void session.submit()}
                disabled={!hydrated || working || dirty}
                aria-describedby={dirty ? `${id}-submit-hint` : undefined}
              >
                {submitting && <Spinner />}
                Submit for review
              </button>
              {dirty && (
                <p id={`${id}-submit-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                  Save your changes before submitting.
                </p>
              )}
            </div>
          )}
          {post && <PostInfoCard post={post} previewHref={previewHref} />}
          {post && <PostStatsLine postId={post.id} href={`/${mode === 'admin' ? 'admin' : 'author'}/stats?post=${post.id}`} />}
        </aside>
      </div>

      <PreviewModal
        open={previewOpen}
        onClose={() => setPreviewOpen(false)}
        title={form.title}
        excerpt={form.excerpt}
        content={form.content}
        featuredImage={form.featuredImage}
        tags={tags.filter((tag) => tag.active)}
        post={post}
      />
      <ConflictDialog
        current={conflict}
        mine={form}
        busy={saving}
        onKeepTheirs={session.keepTheirs}
        onKeepMine={session.keepMine}
        onClose={session.closeConflict}
      />
      {post && (
        <HistoryPanel
          open={historyOpen}
          postId={post.id}
          version={post.version}
          unsaved={dirty}
          onClose={() => setHistoryOpen(false)}
          onRestored={(saved, message) => {
            session.restored(saved, message);
            setHistoryOpen(false);
          }}
        />
      )}
    </div>
  );
}
