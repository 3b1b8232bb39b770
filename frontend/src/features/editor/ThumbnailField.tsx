/**
 * The featured image (docs/requirements.md#thumbnail-flow, docs/requirements.md#validation-thumbnail, docs/requirements.md#errors-upload): idle →
 * reviewing (a file chosen: type and size, dimensions read in the browser, then POST
 * /images/validate) → uploading (progress bar, 60 s limit, cancellable) → reviewing with the
 * uploaded image. Done, Cancel and Remove return to idle. A size other than the recommended
 * 800x400 asks 'Continue anyway?'; removing asks first. Files the editor no longer needs are
 * handed to `onDiscard`, which deletes what it may and answers false when a delete failed.
 * A chosen image not uploaded yet is reported through `onPending`: the editor's save
 * uploads it first (with this field's progress bar), so Save Draft never drops the choice.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { EditorTexts, editorErrors } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { Alert, Spinner } from '../../components/islands/form-controls';
import { ConfirmDialog } from '../../components/islands/Dialog';
import { fetchUploadInfo, uploadThumbnail, validateImage, type UploadedImage } from './editor-api';
import {
  acceptAttribute,
  DEFAULT_UPLOAD_INFO,
  dimensionMismatch,
  dimensionProblem,
  fileProblem,
  formatBytes,
  ImageNotUploaded,
  type Dimensions,
  type PendingImage,
  type UploadInfo,
} from './thumbnail-rules';

interface Props {
  value: string;
  /** The thumbnail the server has for this post ('' for none). */
  savedValue: string;
  onChange: (url: string) => void;
  onUploaded: (image: UploadedImage) => void;
  onDiscard: (url: string) => Promise<boolean>;
  /** The chosen image not uploaded yet, whenever that changes (undefined: none). */
  onPending?: (pending: PendingImage | undefined) => void;
  signedIn: boolean;
  disabled?: boolean;
  error?: string;
}

type Problem = { title: string; text: string };
type Chosen = { file: File; localUrl: string };
type Phase =
  | { kind: 'idle' }
  | ({ kind: 'checking' } & Chosen)
  | ({ kind: 'reviewing'; size?: Dimensions; warnings: string[]; problem?: Problem; failure?: Problem } & Chosen)
  | ({ kind: 'uploading'; size: Dimensions; warnings: string[]; progress: number } & Chosen)
  | ({ kind: 'uploaded'; image: UploadedImage; previous: string } & Chosen);

/** Width and height as displayed (EXIF orientation applied), read by the browser. */
async function readDimensions(file: File): Promise<Dimensions> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file);
      const size = { width: bitmap.width, height: bitmap.height };
      bitmap.close();
      return size;
    } catch {
      // fall back to an <img>
    }
  }
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve({ width: image.naturalWidth, height: image.naturalHeight });
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error('unreadable image'));
    };
    image.src = url;
  });
}

export default function ThumbnailField({
  value,
  savedValue,
  onChange,
  onUploaded,
  onDiscard,
  onPending,
  signedIn,
  disabled,
  error,
}: Props) {
  const id = useId();
  const [info, setInfo] = useState<UploadInfo>(DEFAULT_UPLOAD_INFO);
  const [phase, setShownPhase] = useState<Phase>({ kind: 'idle' });
  /** The phase as of now (a save asks between renders). */
  const now = useRef<Phase>(phase);
  const setPhase = (next: Phase | ((current: Phase) => Phase)) => {
    now.current = typeof next === 'function' ? next(now.current) : next;
    setShownPhase(now.current);
  };
  /** The running check of a chosen file, and the running upload. */
  const checking = useRef<Promise<unknown>>(undefined);
  const uploading = useRef<Promise<UploadedImage>>(undefined);
  /** Answers the 'Continue anyway?' a save asked. */
  const answer = useRef<(upload: boolean) => void>(undefined);
  const [confirm, setConfirm] = useState<'continue' | 'remove'>();
  const [notice, setNotice] = useState<string>();
  const input = useRef<HTMLInputElement>(null);
  const chooser = useRef<HTMLButtonElement>(null);
  const run = useRef(0);
  const upload = useRef<AbortController>(undefined);
  const localUrl = useRef<string>(undefined);
  /** Focus goes to the choose button once it is back (after Done, Cancel or Remove). */
  const refocus = useRef(false);

  useEffect(() => {
    if (refocus.current && chooser.current) {
      refocus.current = false;
      chooser.current.focus();
    }
  });

  useEffect(() => {
    let stale = false;
    void fetchUploadInfo().then((answer) => !stale && setInfo(answer));
    return () => {
      stale = true;
      upload.current?.abort();
      if (localUrl.current) URL.revokeObjectURL(localUrl.current);
    };
  }, []);

  /** Back to idle: the chosen file's preview is released, a running upload stopped. */
  function reset() {
    run.current += 1;
    upload.current?.abort();
    upload.current = undefined;
    if (localUrl.current) URL.revokeObjectURL(localUrl.current);
    localUrl.current = undefined;
    setPhase({ kind: 'idle' });
    setConfirm(undefined);
    // A save waiting for 'Continue anyway?' hears no.
    answer.current?.(false);
    answer.current = undefined;
  }

  function discard(url: string) {
    if (!url) return;
    void onDiscard(url).then((deleted) => !deleted && setNotice(EditorTexts.REMOVED_MAY_REMAIN));
  }

  function choose(file: File) {
    const check = runChecks(file);
    checking.current = check;
    void check.finally(() => checking.current === check && (checking.current = undefined));
  }

  async function runChecks(file: File) {
    reset();
    setNotice(undefined);
    const current = run.current;
    const chosen = { file, localUrl: URL.createObjectURL(file) };
    localUrl.current = chosen.localUrl;
    const settle = (next: Phase) => current === run.current && setPhase(next);
    setPhase({ kind: 'checking', ...chosen });
    const basic = fileProblem(file, info);
    if (basic) return settle({ kind: 'reviewing', ...chosen, warnings: [], problem: { title: EditorTexts.INVALID_FILE, text: basic } });
    let size: Dimensions;
    try {
      size = await readDimensions(file);
    } catch {
      return settle({
        kind: 'reviewing',
        ...chosen,
        warnings: [],
        problem: { title: EditorTexts.INVALID_FILE, text: EditorTexts.FILE_UNREADABLE },
      });
    }
    const tooLarge = dimensionProblem(size, info);
    if (tooLarge)
      return settle({
        kind: 'reviewing',
        ...chosen,
        size,
        warnings: [],
        problem: { title: EditorTexts.INVALID_DIMENSIONS, text: tooLarge },
      });
    try {
      const check = await validateImage(file);
      settle({ kind: 'reviewing', ...chosen, size, warnings: check.warnings });
    } catch (failure) {
      settle({
        kind: 'reviewing',
        ...chosen,
        size,
        warnings: [],
        problem: {
          title: EditorTexts.IMAGE_VALIDATION_FAILED,
          text: errorText(failure, editorErrors(EditorTexts.IMAGE_VALIDATION_FAILED)),
        },
      });
    }
  }

  /** Uploads the reviewed file; rejects with ImageNotUploaded when it is not uploaded. */
  function startUpload(): Promise<UploadedImage> {
    const reviewed = now.current;
    if (reviewed.kind !== 'reviewing' || reviewed.problem || !reviewed.size)
      return Promise.reject(new ImageNotUploaded(EditorTexts.IMAGE_NOT_UPLOADED, EditorTexts.IMAGE_UPLOAD_CANCELLED));
    setConfirm(undefined);
    const attempt = uploadReviewed(reviewed);
    uploading.current = attempt;
    void attempt.catch(() => undefined).finally(() => uploading.current === attempt && (uploading.current = undefined));
    return attempt;
  }

  async function uploadReviewed(reviewed: Extract<Phase, { kind: 'reviewing' }>): Promise<UploadedImage> {
    const current = run.current;
    const { file, localUrl: preview, size = { width: 0, height: 0 }, warnings } = reviewed;
    const controller = new AbortController();
    upload.current = controller;
    setPhase({ kind: 'uploading', file, localUrl: preview, size, warnings, progress: 0 });
    try {
      const image = await uploadThumbnail(
        file,
        (progress) => current === run.current && setPhase((now) => (now.kind === 'uploading' ? { ...now, progress } : now)),
        controller.signal,
      );
      if (current !== run.current) {
        // Cancelled after the server stored it: nobody uses this file.
        onUploaded(image);
        discard(image.url);
        throw new ImageNotUploaded(EditorTexts.IMAGE_NOT_UPLOADED, EditorTexts.IMAGE_UPLOAD_CANCELLED);
      }
      onUploaded(image);
      setPhase({ kind: 'uploaded', file, localUrl: preview, image, previous: value });
      onChange(image.url);
      return image;
    } catch (failure) {
      if (failure instanceof ImageNotUploaded) throw failure;
      const cancelled = failure instanceof DOMException && failure.name === 'AbortError';
      const problem = { title: EditorTexts.UPLOAD_FAILED, text: errorText(failure, editorErrors(EditorTexts.UPLOAD_FAILED)) };
      if (current === run.current)
        setPhase({ kind: 'reviewing', file, localUrl: preview, size, warnings, failure: cancelled ? undefined : problem });
      throw cancelled || current !== run.current
        ? new ImageNotUploaded(EditorTexts.IMAGE_NOT_UPLOADED, EditorTexts.IMAGE_UPLOAD_CANCELLED)
        : new ImageNotUploaded(problem.title, problem.text);
    } finally {
      if (upload.current === controller) upload.current = undefined;
    }
  }

  function requestUpload() {
    if (phase.kind !== 'reviewing' || phase.problem || !phase.size) return;
    if (dimensionMismatch(phase.size, info)) setConfirm('continue');
    // The field shows a failure itself.
    else startUpload().catch(() => undefined);
  }

  /** 'Continue anyway?' for a save: resolves with the writer's answer. */
  function askToContinue(): Promise<boolean> {
    answer.current?.(false);
    return new Promise((resolve) => {
      answer.current = resolve;
      setConfirm('continue');
    });
  }

  function answerContinue(upload: boolean) {
    const resolve = answer.current;
    answer.current = undefined;
    setConfirm(undefined);
    if (resolve) resolve(upload);
    else if (upload) startUpload().catch(() => undefined);
  }

  /** A save's upload of the chosen file: after its checks, asking first when `ask` allows it. */
  async function uploadChosen({ ask }: { ask: boolean }): Promise<UploadedImage> {
    if (now.current.kind === 'checking') await checking.current;
    const chosen = now.current;
    if (chosen.kind === 'uploading' && uploading.current) return uploading.current;
    if (chosen.kind === 'uploaded') return chosen.image;
    if (chosen.kind !== 'reviewing') throw new ImageNotUploaded(EditorTexts.IMAGE_NOT_UPLOADED, EditorTexts.IMAGE_UPLOAD_CANCELLED);
    if (chosen.problem) throw new ImageNotUploaded(chosen.problem.title, chosen.problem.text);
    if (chosen.size && dimensionMismatch(chosen.size, info)) {
      if (!ask || !(await askToContinue())) throw new ImageNotUploaded(EditorTexts.IMAGE_NOT_UPLOADED, EditorTexts.IMAGE_SIZE_DECLINED);
    }
    return startUpload();
  }

  function cancelUpload() {
    upload.current?.abort();
  }

  /** Done: the uploaded image stays; the one it replaced is no longer needed. */
  function finish(focusChooser = true) {
    if (phase.kind === 'uploaded' && phase.previous && phase.previous !== phase.image.url) discard(phase.previous);
    reset();
    refocus.current = focusChooser;
  }

  /** Cancel: back to the image before; the uploaded one is no longer needed. */
  function cancel() {
    if (phase.kind === 'uploaded') {
      onChange(phase.previous);
      discard(phase.image.url);
    }
    reset();
    refocus.current = true;
  }

  function remove() {
    setConfirm(undefined);
    const old = value;
    onChange('');
    discard(old);
    refocus.current = true;
  }

  // Once a save has stored the uploaded image, there is nothing to go back to.
  useEffect(() => {
    if (phase.kind === 'uploaded' && savedValue === phase.image.url) finish(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [savedValue, phase]);

  // The chosen image not uploaded yet, for the editor's save (it calls the newest uploadChosen).
  const actions = useRef({ uploadChosen });
  actions.current = { uploadChosen };
  const pendingState: PendingImage['state'] | undefined =
    phase.kind === 'checking'
      ? 'checking'
      : phase.kind === 'uploading'
        ? 'uploading'
        : phase.kind === 'reviewing'
          ? phase.problem || !phase.size
            ? 'refused'
            : dimensionMismatch(phase.size, info)
              ? 'ask'
              : phase.failure
                ? 'failed'
                : 'ready'
          : undefined;
  const pendingProgress = phase.kind === 'uploading' ? phase.progress : undefined;
  const reportPending = useRef(onPending);
  reportPending.current = onPending;
  useEffect(() => {
    reportPending.current?.(
      pendingState
        ? { state: pendingState, progress: pendingProgress, upload: (options) => actions.current.uploadChosen(options) }
        : undefined,
    );
  }, [pendingState, pendingProgress]);
  useEffect(() => () => reportPending.current?.(undefined), []);

  const busy = disabled || phase.kind === 'checking' || phase.kind === 'uploading';
  const hint = `${info.allowedFormats.map((format) => format.toUpperCase()).join(', ')} up to ${formatBytes(info.maxSize)}. Recommended ${info.recommendedDimensions.width}x${info.recommendedDimensions.height}.`;
  const shown = phase.kind === 'idle' ? value : phase.kind === 'uploaded' ? phase.image.url : phase.localUrl;

  return (
    <section aria-labelledby={`${id}-heading`} className="space-y-3">
      <h3 id={`${id}-heading`} className="text-sm font-medium">
        Featured image
      </h3>
      {shown ? (
        <img
          src={shown}
          alt={phase.kind === 'idle' ? 'Featured image' : 'Chosen image'}
          className="aspect-[2/1] w-full rounded-lg border border-slate-200 object-cover dark:border-slate-800"
        />
      ) : (
        <div className="flex aspect-[2/1] w-full items-center justify-center rounded-lg border border-dashed border-slate-300 text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400">
          No featured image
        </div>
      )}

      <input
        ref={input}
        type="file"
        hidden
        aria-label="Featured image file"
        accept={acceptAttribute(info)}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) choose(file);
        }}
      />

      <div aria-live="polite" className="space-y-2">
        {phase.kind === 'checking' && (
          <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <Spinner /> {EditorTexts.CHECKING_IMAGE}
          </p>
        )}
        {(phase.kind === 'reviewing' || phase.kind === 'uploading' || phase.kind === 'uploaded') && (
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="thumbnail-file">
            {phase.file.name} · {formatBytes(phase.file.size)}
            {phase.kind === 'uploaded'
              ? ` · ${phase.image.width}x${phase.image.height}`
              : phase.size
                ? ` · ${phase.size.width}x${phase.size.height}`
                : ''}
          </p>
        )}
        {phase.kind === 'reviewing' && phase.problem && (
          <Alert>
            <strong className="block">{phase.problem.title}</strong>
            {phase.problem.text}
          </Alert>
        )}
        {phase.kind === 'reviewing' && phase.failure && (
          <Alert>
            <strong className="block">{phase.failure.title}</strong>
            {phase.failure.text}
          </Alert>
        )}
        {(phase.kind === 'reviewing' || phase.kind === 'uploading') && phase.warnings.length > 0 && (
          <ul className="list-disc pl-5 text-sm text-amber-800 dark:text-amber-200">
            {phase.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        )}
        {phase.kind === 'uploaded' && (
          <>
            <p className="text-sm font-medium text-emerald-700 dark:text-emerald-300">Image uploaded.</p>
            {phase.image.warnings.length > 0 && (
              <ul className="list-disc pl-5 text-sm text-amber-800 dark:text-amber-200">
                {phase.image.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            )}
          </>
        )}
        {notice && <p className="text-sm text-amber-800 dark:text-amber-200">{notice}</p>}
      </div>

      {phase.kind === 'uploading' && (
        <div>
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={phase.progress}
            aria-valuetext={`${phase.progress}%`}
            className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          >
            <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${phase.progress}%` }} />
          </div>
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400" aria-hidden="true">
            Uploading... {phase.progress}%
          </p>
        </div>
      )}

      <div className="flex flex-wrap gap-2">
        {(phase.kind === 'idle' || phase.kind === 'checking' || phase.kind === 'reviewing') && (
          <button
            ref={chooser}
            type="button"
            className="btn-secondary"
            onClick={() => input.current?.click()}
            disabled={busy || !signedIn}
            aria-describedby={`${id}-hint`}
          >
            {phase.kind === 'reviewing' ? 'Choose another image' : value ? 'Change image' : 'Choose image'}
          </button>
        )}
        {phase.kind === 'idle' && value && (
          <button type="button" className="btn-secondary" onClick={() => setConfirm('remove')} disabled={busy}>
            Remove image
          </button>
        )}
        {phase.kind === 'reviewing' && !phase.problem && (
          <button type="button" className="btn-primary" onClick={requestUpload} disabled={busy || !signedIn}>
            {phase.failure ? 'Try upload again' : 'Upload image'}
          </button>
        )}
        {phase.kind === 'uploading' && (
          <button type="button" className="btn-secondary" onClick={cancelUpload}>
            Cancel upload
          </button>
        )}
        {phase.kind === 'uploaded' && (
          <button type="button" className="btn-primary" onClick={() => finish()} disabled={disabled}>
            Done
          </button>
        )}
        {(phase.kind === 'checking' || phase.kind === 'reviewing' || phase.kind === 'uploaded') && (
          <button type="button" className="btn-ghost" onClick={cancel} disabled={disabled}>
            Cancel
          </button>
        )}
      </div>
      <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
        {hint}
      </p>
      {error && <p className="text-sm text-red-600 dark:text-red-400">{error}</p>}

      <ConfirmDialog
        role="dialog"
        open={confirm === 'continue'}
        title={EditorTexts.CONTINUE_ANYWAY}
        message={
          phase.kind === 'reviewing' && phase.size ? (
            <>
              <p>
                {EditorTexts.dimensionMismatch(
                  phase.size.width,
                  phase.size.height,
                  info.recommendedDimensions.width,
                  info.recommendedDimensions.height,
                )}
              </p>
              {phase.warnings.map((warning) => (
                <p key={warning} className="mt-1">
                  {warning}
                </p>
              ))}
            </>
          ) : null
        }
        confirmLabel="Continue"
        onConfirm={() => answerContinue(true)}
        onCancel={() => answerContinue(false)}
      />
      <ConfirmDialog
        role="dialog"
        open={confirm === 'remove'}
        title={EditorTexts.REMOVE_TITLE}
        message={EditorTexts.REMOVE_MESSAGE}
        confirmLabel="Remove"
        danger
        onConfirm={remove}
        onCancel={() => setConfirm(undefined)}
      />
    </section>
  );
}
