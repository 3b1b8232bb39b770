/**
 * The post editor (spec 001 §2 'Post editor', §3 'Editor form', §5 'Post save'), shared by the
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
 * - Issue 20: every save sends the version the editor holds; a 409 'changed elsewhere' opens the
 *   conflict dialog (keep theirs, keep mine, compare), never a silent overwrite. Autosave: 5 s
 *   after the last change, for DRAFT and REJECTED posts (and an author's new post once it has a
 *   title and content), with a role="status" line ('Saving…', 'Saved · 3:04 PM GMT+7', 'Not
 *   saved, retrying' with a growing delay on network and server failures); it never submits nor
 *   changes the status, and the local copy stays the fallback offline. The History panel lists,
 *   opens, compares and restores revisions; the SEO section edits the post's search and social
 *   fields with live previews.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { ApiError } from '../../lib/api/errors';
import { formatTime, siteWallTimeToDate, siteZoneName } from '../../lib/dates';
import { slugAfterTitleChange } from '../../../../shared/slug';
import { EditorTexts, editorErrors, PublishingTexts, saveFailure } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { setFlash } from '../author';
import { Alert, FieldFrame as Field, Spinner, useHydrated } from '../../components/islands/form-controls';
import { useKeepTyped } from '../../components/islands/keep-typed';
import { deleteImage, savePost, submitForReview, type UploadedImage } from './editor-api';
import {
  formFromPost,
  LIMITS,
  sameForm,
  saveProblems,
  savePayload,
  selectedTags,
  STATUS_LABELS,
  statusOptions,
  type EditorField,
  type EditorForm,
  type PostResponse,
  type SeoField,
  type TagResponse,
} from './editor-form';
import { clearDraft, DRAFT_DELAY_MS, draftToOffer, newDraftKey, postDraftKey, readDraft, writeDraft, type LocalDraft } from './local-draft';
import MarkdownToolbar, { applyFormat, shortcutAction } from './MarkdownToolbar';
import PostInfoCard, { useDateTime } from './PostInfoCard';
import PreviewModal from './PreviewModal';
import TagPicker from './TagPicker';
import ThumbnailField from './ThumbnailField';
import { ownImageFilename } from './thumbnail-rules';
import { usePreview } from './use-preview';
import ConflictDialog from './ConflictDialog';
import HistoryPanel from './HistoryPanel';
import SeoSection from './SeoSection';
import { currentPost } from './revisions-api';
import { AUTOSAVE_DELAY_MS, autosaveRetryDelay, isEditConflict, isTransientFailure } from './autosave';
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

type Notice = { kind: 'success' | 'error' | 'info'; title?: string; text: string; extra?: string };
type Errors = Partial<Record<EditorField, string>>;

const INPUT =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-500 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-950 dark:placeholder:text-slate-400';
const INPUT_ERROR = 'border-red-500 focus:border-red-500 focus:ring-red-500/30 dark:border-red-500';

/** `href` with one query parameter set. */
function withParam(href: string, name: string, value: string): string {
  const url = new URL(href, window.location.origin);
  url.searchParams.set(name, value);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : url.toString();
}

const dialogOpen = () => document.querySelector('dialog[open]') !== null;


type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; at: Date } | { kind: 'retrying' } | { kind: 'failed' };

function saveStateText(state: SaveState): string {
  switch (state.kind) {
    case 'saving':
      return PublishingTexts.SAVING;
    case 'saved':
      return PublishingTexts.savedAt(formatTime(state.at));
    case 'retrying':
      return PublishingTexts.RETRYING;
    case 'failed':
      return PublishingTexts.NOT_SAVED;
    default:
      return '';
  }
}

const SEO_FIELDS: EditorField[] = ['metaTitle', 'metaDescription', 'canonicalUrl', 'socialImage'];

export default function PostEditor({ mode, post: initialPost, availableTags, signedIn, backHref, savedHref, previewHref, editHref, userId, heading, savedHeading }: PostEditorProps) {
  const id = useId();
  const fieldId = (field: EditorField) => `${id}-${field}`;
  const hydrated = useHydrated();
  const keepTyped = useKeepTyped();
  const dateTime = useDateTime();

  const [post, setPost] = useState(initialPost);
  const [form, setForm] = useState<EditorForm>(() => formFromPost(initialPost));
  const [baseline, setBaseline] = useState<EditorForm>(() => formFromPost(initialPost));
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<Notice>();
  const [saving, setSaving] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [view, setView] = useState<'write' | 'preview'>('write');
  const [previewOpen, setPreviewOpen] = useState(false);
  const [offer, setOffer] = useState<LocalDraft>();
  const [draftChecked, setDraftChecked] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  /** The post as saved elsewhere, while the conflict dialog asks what to keep. */
  const [conflict, setConflict] = useState<PostResponse>();
  const [historyOpen, setHistoryOpen] = useState(false);
  const [seoOpen, setSeoOpen] = useState(false);
  const retryTimer = useRef<number | undefined>(undefined);
  const retryAttempt = useRef(0);
  /** The form an autosave was refused for (a field error): not sent again until it changes. */
  const refusedForm = useRef<EditorForm | undefined>(undefined);
  const manualQueued = useRef(false);
  /** Submit's optional requested publish time: a datetime-local value in the site zone. */
  const [requestedAt, setRequestedAt] = useState('');
  const [requestedError, setRequestedError] = useState<string>();

  const busy = useRef(false);
  const leaving = useRef(false);
  const key = useRef(initialPost ? postDraftKey(userId, initialPost.id) : newDraftKey(userId));
  /** Thumbnails uploaded on this page: URL → file name. */
  const uploads = useRef(new Map<string, string>());
  const content = useRef<HTMLTextAreaElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  const admin = mode === 'admin';
  const dirty = !sameForm(form, baseline);
  const postTags = [...(initialPost?.tags ?? []), ...(post?.tags ?? [])];
  const tags = selectedTags(form.tagIds, availableTags, postTags);
  const inlinePreview = usePreview(form.content, view === 'preview');
  const latest = useRef({ form, dirty, post });
  latest.current = { form, dirty, post };

  // ---- the local copy ---------------------------------------------------------------------------

  useEffect(() => {
    const found = draftToOffer(readDraft(key.current), initialPost, formFromPost(initialPost));
    setOffer(found);
    setDraftChecked(true);
    // Only on the first render: the offer is about what the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  /** Writes the local copy now (before leaving), when there is something unsaved. */
  function flushDraft() {
    const { form: current, dirty: unsaved, post: saved } = latest.current;
    if (unsaved && draftChecked && !offer) writeDraft(key.current, { savedAt: Date.now(), postId: saved?.id, form: current });
  }

  useEffect(() => {
    if (!draftChecked || offer) return;
    if (!dirty) {
      clearDraft(key.current);
      return;
    }
    const timer = window.setTimeout(() => writeDraft(key.current, { savedAt: Date.now(), postId: post?.id, form }), DRAFT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [form, dirty, draftChecked, offer, post?.id]);

  useEffect(() => {
    const onPageHide = () => flushDraft();
    window.addEventListener('pagehide', onPageHide);
    if (!dirty) return () => window.removeEventListener('pagehide', onPageHide);
    const warn = (event: BeforeUnloadEvent) => {
      if (leaving.current) return;
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('pagehide', onPageHide);
      window.removeEventListener('beforeunload', warn);
    };
  });

  function restore() {
    if (!offer) return;
    setForm(offer.form);
    setOffer(undefined);
    setErrors({});
    setNotice({ kind: 'info', text: EditorTexts.RESTORED });
  }

  function discardOffer() {
    clearDraft(key.current);
    setOffer(undefined);
  }

  // ---- fields ------------------------------------------------------------------------------------

  function update(patch: Partial<EditorForm>, field?: EditorField) {
    setForm((current) => ({ ...current, ...patch }));
    if (field && errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  }

  function changeTitle(title: string) {
    setForm((current) => ({ ...current, title, slug: slugAfterTitleChange(current.slug, current.title, title) }));
    if (errors.title || errors.slug) setErrors((current) => ({ ...current, title: undefined }));
  }

  /** After a failed check or save: focus on the first field at fault, else on the notice. */
  function focusField(field: EditorField | 'auth' | undefined) {
    if (field === 'content') setView('write');
    if (field && field !== 'auth' && SEO_FIELDS.includes(field)) setSeoOpen(true);
    window.requestAnimationFrame(() => (field && field !== 'auth' ? document.getElementById(fieldId(field)) : noticeRef.current)?.focus());
  }

  /** A thumbnail the post no longer shows: an upload of this page that no save stored is deleted now. */
  async function discardImage(url: string): Promise<boolean> {
    const filename = uploads.current.get(url);
    if (!filename || url === (latest.current.post?.thumbnail ?? '')) return true;
    uploads.current.delete(url);
    try {
      await deleteImage(filename);
      return true;
    } catch {
      return false;
    }
  }

  /** After a save replaced or removed the stored thumbnail: the old file goes (the server keeps files a post still uses). */
  async function deleteReplacedThumbnail(url: string): Promise<boolean> {
    const filename = uploads.current.get(url) ?? ownImageFilename(url);
    if (!filename) return true;
    uploads.current.delete(url);
    try {
      await deleteImage(filename);
      return true;
    } catch (error) {
      // Not found: already gone. Anything else: it may still be stored.
      return error instanceof ApiError && error.status === 404;
    }
  }

  // ---- save, submit, leave ------------------------------------------------------------------------

  /**
   * Saves the form. `auto`: an autosave (no notice on success, no focus moves, the saved status in
   * admin mode, network and server failures retried later). `base`: the post the save is based on
   * when it is not the one shown yet (keep mine: the version saved elsewhere).
   */
  async function save(auto = false, base: PostResponse | undefined = post) {
    if (busy.current) {
      // A click on Save during an autosave runs once that one is done (with the newest version).
      if (!auto && !saving) manualQueued.current = true;
      return;
    }
    window.clearTimeout(retryTimer.current);
    const problems = saveProblems(form, { mode, signedIn });
    if (problems.length) {
      if (auto) return;
      const found: Errors = {};
      for (const problem of problems) if (problem.field !== 'auth' && !found[problem.field]) found[problem.field] = problem.message;
      setErrors(found);
      setNotice({ kind: 'error', title: EditorTexts.VALIDATION_ERROR, text: problems[0].message });
      focusField(problems[0].field);
      return;
    }
    busy.current = true;
    if (!auto) {
      setSaving(true);
      setNotice(undefined);
    }
    setSaveState({ kind: 'saving' });
    // Autosave never changes the status: an admin's status choice waits for the manual save.
    const sent = auto && base ? { ...form, status: base.status } : form;
    const creating = base === undefined;
    const storedThumbnail = base?.thumbnail ?? '';
    try {
      const { post: saved, message } = await savePost(mode, base?.id, savePayload(sent, mode, tags, base?.version));
      retryAttempt.current = 0;
      setSaveState({ kind: 'saved', at: new Date() });
      setErrors({});
      if (auto) setNotice((current) => (current?.kind === 'error' ? undefined : current));
      clearDraft(key.current);
      if (creating) {
        key.current = postDraftKey(userId, saved.id);
        if (editHref && !admin) {
          window.history.replaceState(null, '', editHref.replace('{id}', String(saved.id)));
          // The title the edit page has ('Edit Post: {title} · Inkwell'): the layout's suffix stays.
          if (heading && savedHeading) document.title = document.title.replace(heading, `${savedHeading}: ${saved.title}`);
        }
      }
      const savedForm = formFromPost(saved);
      setPost(saved);
      setBaseline(savedForm);
      setForm((current) => (sameForm(current, sent) ? savedForm : current));
      const replaced = storedThumbnail && storedThumbnail !== (saved.thumbnail ?? '') ? await deleteReplacedThumbnail(storedThumbnail) : true;
      const extra = replaced ? undefined : EditorTexts.REMOVED_MAY_REMAIN;
      if (auto) {
        if (extra) setNotice({ kind: 'info', text: extra });
        return;
      }
      if (admin) {
        leaving.current = true;
        setNotice({ kind: 'success', text: message ?? (creating ? EditorTexts.CREATED : EditorTexts.UPDATED), extra });
        window.location.assign(withParam(savedHref, 'notice', creating ? 'created' : 'updated'));
        return;
      }
      setNotice({ kind: 'success', text: message ?? EditorTexts.SAVED_AS_DRAFT, extra });
    } catch (error) {
      if (base && isEditConflict(error)) {
        setSaveState({ kind: 'failed' });
        manualQueued.current = false;
        // Until the text changes, autosave does not ask again (Escape leaves the editor unsaved).
        refusedForm.current = form;
        await openConflict(base.id);
        return;
      }
      if (auto && isTransientFailure(error)) {
        // Offline or the server failing: the local copy keeps the text meanwhile; try again later.
        setSaveState({ kind: 'retrying' });
        retryTimer.current = window.setTimeout(() => void actions.current.save(true), autosaveRetryDelay(retryAttempt.current++));
        return;
      }
      setSaveState({ kind: 'failed' });
      const failure = saveFailure(error, creating);
      setErrors(failure.fields);
      setNotice({ kind: 'error', title: failure.title, text: failure.text });
      refusedForm.current = form;
      if (!auto) focusField((Object.keys(failure.fields) as EditorField[])[0] ?? 'auth');
    } finally {
      busy.current = false;
      if (!leaving.current && !auto) setSaving(false);
      if (manualQueued.current && !leaving.current) {
        manualQueued.current = false;
        // After React has rendered this save's answer, so the queued one is based on it.
        window.setTimeout(() => void actions.current.save(false), 0);
      }
    }
  }

  // ---- autosave, edits elsewhere, history ---------------------------------------------------------

  const autosaveAllowed = signedIn && (post ? post.status === 'DRAFT' || post.status === 'REJECTED' : mode === 'author' && editHref !== undefined);
  useEffect(() => {
    if (!hydrated || !draftChecked || !autosaveAllowed || !dirty || saving || conflict || offer || saveState.kind === 'saving' || saveState.kind === 'retrying') return;
    if (!form.title.trim() || !form.content.trim()) return;
    if (refusedForm.current && sameForm(refusedForm.current, form)) return;
    const timer = window.setTimeout(() => void actions.current.save(true), AUTOSAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [form, dirty, hydrated, draftChecked, autosaveAllowed, saving, conflict, offer, saveState]);

  useEffect(() => () => window.clearTimeout(retryTimer.current), []);

  /** A save was refused as based on an old version: the dialog shows the post as saved now. */
  async function openConflict(postId: number) {
    try {
      setConflict(await currentPost(postId));
    } catch (error) {
      setNotice({ kind: 'error', text: errorText(error, editorErrors(PublishingTexts.CONFLICT_LOAD_FAILED)) });
    }
  }

  /** The editor shows `saved` as it is stored: fields, baseline and version. */
  function loadSaved(saved: PostResponse) {
    const savedForm = formFromPost(saved);
    setPost(saved);
    setBaseline(savedForm);
    setForm(savedForm);
    setErrors({});
    refusedForm.current = undefined;
    clearDraft(key.current);
  }

  function keepTheirs() {
    if (!conflict) return;
    loadSaved(conflict);
    setConflict(undefined);
    setSaveState({ kind: 'idle' });
    setNotice({ kind: 'info', text: PublishingTexts.THEIRS_LOADED });
  }

  function keepMine() {
    if (!conflict) return;
    const theirs = conflict;
    // The form stays; the save is now based on the version saved elsewhere.
    setPost(theirs);
    setConflict(undefined);
    void save(false, theirs);
  }

  function restored(saved: PostResponse, message: string | undefined) {
    loadSaved(saved);
    setHistoryOpen(false);
    setSaveState({ kind: 'saved', at: new Date() });
    setNotice({ kind: 'success', text: message ?? PublishingTexts.RESTORED });
  }

  async function submit() {
    if (!post || busy.current || dirty) return;
    let requestedPublishAt: string | undefined;
    if (requestedAt) {
      const when = siteWallTimeToDate(requestedAt);
      if (!when || when.getTime() <= Date.now()) {
        setRequestedError(PublishingTexts.REQUESTED_TIME_FUTURE);
        window.requestAnimationFrame(() => document.getElementById(`${id}-requested`)?.focus());
        return;
      }
      requestedPublishAt = when.toISOString();
    }
    busy.current = true;
    setSubmitting(true);
    setNotice(undefined);
    setRequestedError(undefined);
    try {
      const { message } = await submitForReview(post.id, requestedPublishAt);
      clearDraft(key.current);
      leaving.current = true;
      setFlash(message ?? EditorTexts.SUBMITTED);
      window.location.assign(savedHref);
    } catch (error) {
      const fieldError = error instanceof ApiError ? error.field('requestedPublishAt') : undefined;
      if (fieldError) setRequestedError(fieldError);
      setNotice({ kind: 'error', text: errorText(error, editorErrors(EditorTexts.SUBMIT_FAILED)) });
      focusField('auth');
      setSubmitting(false);
    } finally {
      busy.current = false;
    }
  }

  function leave(href: string) {
    flushDraft();
    leaving.current = true;
    window.location.assign(href);
  }

  function openPreview() {
    if (!form.title.trim() || !form.content.trim()) {
      setNotice({ kind: 'error', text: EditorTexts.PREVIEW_REQUIRES });
      focusField('auth');
      return;
    }
    setPreviewOpen(true);
  }

  // Ctrl/Cmd+S saves, Esc goes back: not while a save runs, nor over a dialog.
  const actions = useRef({ save, leave });
  actions.current = { save, leave };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.isComposing) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        if (!busy.current && !dialogOpen()) void actions.current.save(false);
        return;
      }
      if (event.key !== 'Escape' || event.defaultPrevented || busy.current || dialogOpen()) return;
      const target = event.target as HTMLInputElement | null;
      if (target?.type === 'search' && target.value) return;
      event.preventDefault();
      actions.current.leave(backHref);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [backHref]);

  // ---- view ----------------------------------------------------------------------------------------

  const working = saving || submitting;
  const canSave = hydrated && signedIn && !!form.title.trim() && !working;
  const canSubmit = mode === 'author' && post !== undefined && (post.status === 'DRAFT' || post.status === 'REJECTED');
  const describe = (field: EditorField, hint?: string) => [errors[field] ? `${fieldId(field)}-error` : '', hint ?? ''].filter(Boolean).join(' ') || undefined;
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
            flushDraft();
            leaving.current = true;
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
          {dirty && hydrated && saveState.kind !== 'saving' && <span className="text-xs text-slate-600 dark:text-slate-400">{EditorTexts.UNSAVED_CHANGES}</span>}
          <button type="button" className="btn-secondary" onClick={openPreview} disabled={!hydrated} aria-haspopup="dialog">
            Preview
          </button>
          {post && (
            <button type="button" className="btn-secondary" onClick={() => setHistoryOpen(true)} disabled={!hydrated || working} aria-haspopup="dialog">
              {PublishingTexts.HISTORY}
            </button>
          )}
          <button type="button" className="btn-primary" onClick={() => void save()} disabled={!canSave} aria-keyshortcuts="Control+S Meta+S">
            {saving && <Spinner />}
            {saveLabel}
          </button>
        </div>
      </div>

      {!signedIn && <Alert>{EditorTexts.AUTH_REQUIRED}</Alert>}

      {offer && (
        <div role="alertdialog" aria-labelledby={`${id}-restore-title`} aria-describedby={`${id}-restore-text`} className="rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100">
          <p id={`${id}-restore-title`} className="font-semibold">
            {EditorTexts.RESTORE_TITLE}
          </p>
          <p id={`${id}-restore-text`} className="mt-1">
            {EditorTexts.restoreMessage(dateTime(new Date(offer.savedAt).toISOString()))}
          </p>
          <div className="mt-3 flex gap-2">
            <button type="button" className="btn-primary" onClick={restore}>
              Restore
            </button>
            <button type="button" className="btn-secondary" onClick={discardOffer}>
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
                <a href={savedHref} className="font-medium underline" onClick={() => (leaving.current = true)}>
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
              onChange={(event) => changeTitle(event.target.value)}
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
              <div className="inline-flex rounded-lg border border-slate-300 p-0.5 dark:border-slate-700" role="group" aria-label="Content view">
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
              <MarkdownToolbar textarea={content} textareaId={fieldId('content')} onChange={(value) => update({ content: value }, 'content')} disabled={!hydrated} />
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
              <div className="min-h-40 rounded-lg border border-slate-300 p-4 dark:border-slate-700" aria-live="polite" aria-busy={inlinePreview.kind === 'loading'} data-testid="content-preview">
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
                      {(inlinePreview.kind === 'ready' ? inlinePreview.preview : inlinePreview.last!).wordCount} words ·{' '}
                      {(inlinePreview.kind === 'ready' ? inlinePreview.preview : inlinePreview.last!).readingTime} min read
                    </p>
                    <div className="post-prose" dangerouslySetInnerHTML={{ __html: (inlinePreview.kind === 'ready' ? inlinePreview.preview : inlinePreview.last!).html }} />
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
                  {statusOptions(post?.status).map((status) => (
                    <option key={status} value={status}>
                      {STATUS_LABELS[status]}
                    </option>
                  ))}
                </select>
              </Field>
              <label className="flex items-center gap-2 text-sm font-medium">
                <input type="checkbox" className="h-4 w-4 rounded border-slate-300" checked={form.isFeatured} onChange={(event) => update({ isFeatured: event.target.checked })} />
                Featured post
              </label>
            </div>
          )}
          <div className="card p-4">
            <ThumbnailField
              value={form.featuredImage}
              savedValue={post?.thumbnail ?? ''}
              onChange={(url) => update({ featuredImage: url }, 'featuredImage')}
              onUploaded={(image: UploadedImage) => uploads.current.set(image.url, image.filename)}
              onDiscard={discardImage}
              signedIn={signedIn}
              disabled={working}
              error={errors.featuredImage}
            />
          </div>
          <div className="card p-4">
            <TagPicker selected={tags} available={availableTags} onChange={(tagIds) => update({ tagIds }, 'tags')} error={errors.tags} disabled={working} />
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
                  onChange={(event) => {
                    setRequestedAt(event.target.value);
                    setRequestedError(undefined);
                  }}
                  disabled={working}
                  aria-invalid={requestedError ? true : undefined}
                  aria-describedby={[`${id}-requested-hint`, requestedError ? `${id}-requested-error` : ''].filter(Boolean).join(' ')}
                />
              </Field>
              <button type="button" className="btn-primary w-full" onClick={() => void submit()} disabled={!hydrated || working || dirty} aria-describedby={dirty ? `${id}-submit-hint` : undefined}>
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
      <ConflictDialog current={conflict} mine={form} busy={saving} onKeepTheirs={keepTheirs} onKeepMine={keepMine} onClose={() => setConflict(undefined)} />
      {post && <HistoryPanel open={historyOpen} postId={post.id} version={post.version} unsaved={dirty} onClose={() => setHistoryOpen(false)} onRestored={restored} />}
    </div>
  );
}

