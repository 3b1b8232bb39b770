import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { upload } from '../../lib/api/upload';
import { announceAvatar } from '../../lib/session-browser';
import { AccountTexts } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { Alert, AvatarImage, Spinner, useHydrated } from '../../components/islands/form-controls';
import { useSubmit } from '../../components/islands/use-submit';
import { holdChosenAvatar } from './chosen-avatar';

const MAX_BYTES = 10 * 1024 * 1024;
const UPLOAD_TIMEOUT_MS = 60_000;

/** The avatar upload's failure texts (docs/requirements.md#screen-account). */
const UPLOAD_TEXTS = {
  network: AccountTexts.UPLOAD_NETWORK,
  timeout: AccountTexts.UPLOAD_TIMEOUT,
  unreadable: AccountTexts.UPLOAD_BAD_JSON,
  failed: (status: number) => `HTTP ${status}: ${AccountTexts.UPLOAD_FAILED}`,
};

/** POST /users/avatar (multipart `file`) with upload progress: the new avatar's address. */
async function uploadAvatar(file: File, onProgress: (percent: number) => void): Promise<string> {
  const answer = await upload('/api/v1/users/avatar', { file }, { onProgress, timeoutMs: UPLOAD_TIMEOUT_MS, texts: UPLOAD_TEXTS });
  if (typeof answer?.avatarUrl !== 'string') throw new ApiError(AccountTexts.UPLOAD_BAD_FORMAT, 200);
  onProgress(100);
  return answer.avatarUrl;
}

/**
 * The account page's avatar card (docs/requirements.md#post-preview): upload with preview and progress, delete. A chosen
 * file not uploaded yet is never dropped silently: the profile form's Save uploads it
 * first (chosen-avatar.ts), and leaving the page asks first.
 */
export default function AccountAvatarCard({ name, avatar: initialAvatar }: { name: string; avatar: string | null }) {
  const [avatar, setAvatar] = useState(initialAvatar);
  const [file, setFile] = useState<File>();
  const [preview, setPreview] = useState<string>();
  const [progress, setProgress] = useState<number>();
  const [notice, setNotice] = useState<string>();
  const { busy, failure: error, setFailure: setError, run } = useSubmit();
  const hydrated = useHydrated();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  function reset() {
    setFile(undefined);
    setPreview(undefined);
    setProgress(undefined);
    if (input.current) input.current.value = '';
  }

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setError(undefined);
    setNotice(undefined);
    if (!chosen) return;
    if (!chosen.type.startsWith('image/')) {
      reset();
      setError(AccountTexts.AVATAR_NOT_IMAGE);
      return;
    }
    if (chosen.size > MAX_BYTES) {
      reset();
      setError(AccountTexts.AVATAR_TOO_BIG);
      return;
    }
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
    setProgress(undefined);
  }

  /** The running upload: a second request (the button and the profile's Save) waits for the same one. */
  const uploading = useRef<Promise<boolean>>(undefined);

  /** Uploads the chosen file; answers whether it is stored. */
  function upload(): Promise<boolean> {
    if (uploading.current) return uploading.current;
    if (!file) return Promise.resolve(true);
    const attempt = send(file).finally(() => {
      uploading.current = undefined;
    });
    uploading.current = attempt;
    return attempt;
  }

  async function send(file: File): Promise<boolean> {
    setProgress(0);
    const result = await run(
      async () => {
        const uploaded = await uploadAvatar(file, setProgress);
        setAvatar(uploaded);
        announceAvatar(uploaded);
        setFile(undefined);
        setPreview(undefined);
        if (input.current) input.current.value = '';
        setNotice(AccountTexts.AVATAR_UPDATED);
      },
      { failure: (failure) => errorText(failure, { fallback: AccountTexts.UPLOAD_FAILED }), onError: () => setProgress(undefined) },
    );
    return result.ok;
  }

  // While a file is chosen: the profile's Save uploads it first, and closing the page asks.
  const actions = useRef({ upload });
  actions.current = { upload };
  useEffect(() => {
    if (!file) return;
    const release = holdChosenAvatar(() => actions.current.upload());
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      release();
      window.removeEventListener('beforeunload', warn);
    };
  }, [file]);

  async function remove() {
    setNotice(undefined);
    await run(
      async () => {
        await unwrap(browserApi().DELETE('/api/v1/users/avatar', {}));
        setAvatar(null);
        announceAvatar(null);
        setNotice(AccountTexts.AVATAR_REMOVED);
      },
      { failure: (failure) => errorText(failure, { fallback: AccountTexts.DELETE_FAILED }) },
    );
  }

  return (
    <section className="card p-6" aria-labelledby="avatar-heading">
      <h2 id="avatar-heading" className="text-lg font-semibold">
        Profile Picture
      </h2>
      <div className="mt-4 flex flex-col items-center gap-4">
        <div data-testid="account-avatar">
          <AvatarImage name={name} src={preview ?? avatar} size="xl" />
        </div>
        {error && <Alert>{error}</Alert>}
        {notice && <Alert kind="success">{notice}</Alert>}
        {progress !== undefined && (
          <div className="w-full">
            <div
              className="h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
            >
              <div className="h-full bg-brand-600 transition-all" style={{ width: `${progress}%` }} />
            </div>
            <p className="mt-1 text-center text-xs text-slate-600 dark:text-slate-400">{progress}%</p>
          </div>
        )}
        <div className="flex flex-wrap justify-center gap-2">
          <label className="btn-secondary cursor-pointer focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-500">
            Choose image
            <input
              ref={input}
              type="file"
              accept="image/*"
              className="sr-only"
              onChange={choose}
              disabled={busy || !hydrated}
              aria-label="Choose avatar image"
            />
          </label>
          {file ? (
            <>
              <button type="button" className="btn-primary" onClick={() => void upload()} disabled={busy}>
                {busy && <Spinner />}
                Upload
              </button>
              <button type="button" className="btn-ghost" onClick={reset} disabled={busy}>
                Cancel
              </button>
            </>
          ) : (
            avatar && (
              <button type="button" className="btn-ghost text-red-600 dark:text-red-400" onClick={remove} disabled={busy}>
                Delete avatar
              </button>
            )
          )}
        </div>
        <p className="text-center text-xs text-slate-500 dark:text-slate-400">JPG, PNG, GIF or WEBP, up to 10MB.</p>
      </div>
    </section>
  );
}
