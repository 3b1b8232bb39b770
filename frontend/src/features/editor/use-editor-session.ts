/**
 * The post editor's session, apart from its view: the post as saved (its version),
 * the form and what differs from the saved one, the local copy (written a moment after each
 * change, offered back, removed after a save), saving with the version held (a 409 'changed
 * elsewhere' opens the conflict: keep theirs, keep mine), autosave with its retries, submit for
 * review, and leaving (Ctrl/Cmd+S saves, Esc goes back; neither while a save runs or over a
 * dialog). The view (PostEditor) renders what this returns and says where focus goes.
 * A featured image chosen but not uploaded is part of what a save sends: the save
 * uploads it first (asking 'Continue anyway?' where its size calls for it). When it cannot be
 * uploaded the save stops, nothing is sent, and the notice says why and what to do; the text
 * stays in the form and its local copy. Autosave uploads it only when no question is needed,
 * and otherwise waits with 'Not saved: upload or cancel the chosen image'.
 */
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api/errors';
import { allows } from '../../lib/api/schema';
import { formatTime, siteWallTimeToDate } from '../../lib/dates';
import { slugAfterTitleChange } from '../../../../isomorphic/slug';
import { EditorTexts, editorErrors, PublishingTexts, saveFailure } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { setFlash } from '../author';
import { deleteImage, savePost, submitForReview } from './editor-api';
import {
  formFromPost,
  sameForm,
  saveProblems,
  savePayload,
  selectedTags,
  type EditorField,
  type EditorForm,
  type PostResponse,
  type TagResponse,
} from './editor-form';
import { clearDraft, DRAFT_DELAY_MS, draftToOffer, newDraftKey, postDraftKey, readDraft, writeDraft, type LocalDraft } from './local-draft';
import { ImageNotUploaded, ownImageFilename, type PendingImage } from './thumbnail-rules';
import { currentPost } from './revisions-api';
import { AUTOSAVE_DELAY_MS, autosaveRetryDelay, isEditConflict, isTransientFailure } from './autosave';

export type Notice = { kind: 'success' | 'error' | 'info'; title?: string; text: string; extra?: string };
export type Errors = Partial<Record<EditorField, string>>;
/** Where focus goes after a refusal: a field, the requested publish time, or the notice ('auth'). */
export type FocusTarget = EditorField | 'requested' | 'auth' | undefined;

export type SaveState =
  | { kind: 'idle' }
  | { kind: 'saving'; uploadProgress?: number }
  | { kind: 'saved'; at: Date }
  | { kind: 'retrying' }
  | { kind: 'failed' }
  | { kind: 'image-waiting' };

/** The save status line: 'Saving…' (or the chosen image's upload progress), 'Saved · 3:04 PM', 'Not saved, retrying', 'Not saved'. */
export function saveStateText(state: SaveState): string {
  switch (state.kind) {
    case 'saving':
      return state.uploadProgress === undefined ? PublishingTexts.SAVING : PublishingTexts.uploadingImage(state.uploadProgress);
    case 'image-waiting':
      return PublishingTexts.IMAGE_WAITING;
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

/** `href` with one query parameter set. */
function withParam(href: string, name: string, value: string): string {
  const url = new URL(href, window.location.origin);
  url.searchParams.set(name, value);
  return url.origin === window.location.origin ? url.pathname + url.search + url.hash : url.toString();
}

/** A modal dialog is open (components/islands/Dialog marks its panel aria-modal). */
const dialogOpen = () => document.querySelector('[aria-modal="true"]') !== null;

export interface EditorSessionOptions {
  mode: 'author' | 'admin';
  initialPost: PostResponse | undefined;
  availableTags: TagResponse[];
  signedIn: boolean;
  hydrated: boolean;
  backHref: string;
  savedHref: string;
  editHref?: string;
  userId: number;
  heading?: string;
  savedHeading?: string;
  /** Moves focus for a refusal (the view knows the fields' elements). */
  focus: (target: FocusTarget) => void;
}

export function useEditorSession({
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
  focus: focusTarget,
}: EditorSessionOptions) {
  const focus = useRef(focusTarget);
  focus.current = focusTarget;

  const [post, setPost] = useState(initialPost);
  const [form, setForm] = useState<EditorForm>(() => formFromPost(initialPost));
  const [baseline, setBaseline] = useState<EditorForm>(() => formFromPost(initialPost));
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<Notice>();
  const [saving, setSaving] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [offer, setOffer] = useState<LocalDraft>();
  const [draftChecked, setDraftChecked] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>({ kind: 'idle' });
  /** The post as saved elsewhere, while the conflict dialog asks what to keep. */
  const [conflict, setConflict] = useState<PostResponse>();
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
  /** A featured image chosen and not uploaded yet (the field reports it). */
  const [pendingImage, setPendingImage] = useState<PendingImage>();
  const pendingImageNow = useRef<PendingImage>(undefined);
  pendingImageNow.current = pendingImage;

  const admin = mode === 'admin';
  const dirty = !sameForm(form, baseline);
  /** What leaving would lose: changed fields, or a chosen image a save has not stored yet. */
  const unsaved = dirty || pendingImage !== undefined;
  /** Autosave does not upload the chosen image by itself: its size asks first, its upload failed, or it was refused. */
  const imageWaits = pendingImage?.state === 'ask' || pendingImage?.state === 'failed' || pendingImage?.state === 'refused';
  const postTags = [...(initialPost?.tags ?? []), ...(post?.tags ?? [])];
  const tags = selectedTags(form.tagIds, availableTags, postTags);
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
    if (!unsaved) return () => window.removeEventListener('pagehide', onPageHide);
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

  /** After a failed check or save: the view focuses the first field at fault, else the notice. */
  const focusField = (field: FocusTarget) => focus.current(field);

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
    let sent = auto && base ? { ...form, status: base.status } : form;
    const creating = base === undefined;
    const storedThumbnail = base?.thumbnail ?? '';
    try {
      // A chosen image goes up first and is saved with the post (the field shows the progress).
      const chosen = pendingImageNow.current;
      if (chosen) sent = { ...sent, featuredImage: (await chosen.upload({ ask: !auto })).url };
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
      const replaced =
        storedThumbnail && storedThumbnail !== (saved.thumbnail ?? '') ? await deleteReplacedThumbnail(storedThumbnail) : true;
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
      if (error instanceof ImageNotUploaded) {
        // Nothing was sent: the post stays as stored, the form and its local copy keep the text.
        manualQueued.current = false;
        if (auto) {
          setSaveState({ kind: 'idle' });
          return;
        }
        setSaveState({ kind: 'failed' });
        setNotice({ kind: 'error', title: error.title, text: error.message, extra: EditorTexts.NOT_SAVED_FOR_IMAGE });
        focusField('auth');
        return;
      }
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

  // A saved post autosaves where its answer allows it (DRAFT, REJECTED); a new author's post once it has an edit page.
  const autosaveAllowed = signedIn && (post ? allows(post, 'autosave') : mode === 'author' && editHref !== undefined);
  useEffect(() => {
    if (
      !hydrated ||
      !draftChecked ||
      !autosaveAllowed ||
      !unsaved ||
      imageWaits ||
      saving ||
      conflict ||
      offer ||
      saveState.kind === 'saving' ||
      saveState.kind === 'retrying'
    )
      return;
    if (!form.title.trim() || !form.content.trim()) return;
    if (!pendingImage && refusedForm.current && sameForm(refusedForm.current, form)) return;
    const timer = window.setTimeout(() => void actions.current.save(true), AUTOSAVE_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [form, unsaved, imageWaits, pendingImage, hydrated, draftChecked, autosaveAllowed, saving, conflict, offer, saveState]);

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
    setSaveState({ kind: 'saved', at: new Date() });
    setNotice({ kind: 'success', text: message ?? PublishingTexts.RESTORED });
  }

  async function submit() {
    if (!post || busy.current || unsaved) return;
    let requestedPublishAt: string | undefined;
    if (requestedAt) {
      const when = siteWallTimeToDate(requestedAt);
      if (!when || when.getTime() <= Date.now()) {
        setRequestedError(PublishingTexts.REQUESTED_TIME_FUTURE);
        focusField('requested');
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

  /** Before following a link away: the local copy is written and leaving does not ask. */
  function beforeLeave() {
    flushDraft();
    leaving.current = true;
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

  const working = saving || submitting;
  // While a save uploads the chosen image, the status line shows its progress.
  const shownSaveState: SaveState =
    saveState.kind === 'saving' && pendingImage?.state === 'uploading'
      ? { kind: 'saving', uploadProgress: pendingImage.progress ?? 0 }
      : autosaveAllowed && imageWaits && saveState.kind !== 'saving'
        ? { kind: 'image-waiting' }
        : saveState;
  const canSubmit = mode === 'author' && allows(post, 'submit');

  return {
    post,
    form,
    errors,
    notice,
    setNotice,
    saving,
    submitting,
    working,
    dirty: unsaved,
    tags,
    offer,
    saveState: shownSaveState,
    conflict,
    closeConflict: () => setConflict(undefined),
    requestedAt,
    requestedError,
    setRequestedAt: (value: string) => {
      setRequestedAt(value);
      setRequestedError(undefined);
    },
    canSubmit,
    restore,
    discardOffer,
    update,
    changeTitle,
    rememberUpload: (image: { url: string; filename: string }) => uploads.current.set(image.url, image.filename),
    setPendingImage,
    discardImage,
    save,
    submit,
    keepTheirs,
    keepMine,
    restored,
    beforeLeave,
  };
}
