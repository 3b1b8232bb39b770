import { useCallback, useState, type FormEvent } from 'react';
import { browserApi } from '../../lib/api/client';
import { ApiError, unwrap } from '../../lib/api/errors';
import { nameAndEmailErrors } from '../../lib/field-rules';
import { charCount, trimInvisible } from '../../../../isomorphic/text';
import { AccountTexts } from './texts';
import { BusyButton, TextAreaField, TextField, Toast, type ToastMessage, useHydrated } from '../../components/islands/form-controls';
import { useKeepTyped } from '../../components/islands/keep-typed';
import { useSubmit } from '../../components/islands/use-submit';
import { AvatarNotUploaded, uploadChosenAvatar } from './chosen-avatar';

interface Profile {
  fullName: string;
  email: string;
  bio: string;
}
type Errors = Partial<Record<keyof Profile, string>>;

const BIO_MAX = 500;

function validate(values: Profile, savedEmail: string): Errors {
  const errors: Errors = nameAndEmailErrors(values, savedEmail);
  if (charCount(trimInvisible(values.bio)) > BIO_MAX) errors.bio = AccountTexts.bioTooLong(BIO_MAX);
  return errors;
}

/**
 * The account page's profile card (docs/requirements.md#screen-account): view mode, edit mode with Save and
 * Cancel. Save uploads a picture chosen in the avatar card first; when that upload
 * fails, the profile is not saved either and the toast says why (the card shows the upload's error).
 */
export default function AccountProfileForm({ initial }: { initial: Profile }) {
  const [saved, setSaved] = useState<Profile>(initial);
  const [draft, setDraft] = useState<Profile>(initial);
  const [editing, setEditing] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const { busy, run } = useSubmit();
  const hydrated = useHydrated();
  const keepTyped = useKeepTyped();
  const [toast, setToast] = useState<ToastMessage>();
  const clearToast = useCallback(() => setToast(undefined), []);

  const set = (field: keyof Profile) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));

  function cancel() {
    setDraft(saved);
    setErrors({});
    setEditing(false);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    const found = validate(draft, saved.email);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    await run(
      async () => {
        await uploadChosenAvatar();
        const body = { fullName: draft.fullName.trim(), email: draft.email.trim(), bio: draft.bio.trim() };
        const user = await unwrap(browserApi().PUT('/api/v1/users/profile', { body }));
        const next = { fullName: user?.fullName ?? body.fullName, email: user?.email ?? body.email, bio: user?.bio ?? body.bio };
        setSaved(next);
        setDraft(next);
        setEditing(false);
        setToast({ kind: 'success', text: AccountTexts.PROFILE_UPDATED, duration: 3000 });
      },
      {
        onError: (error) => {
          if (error instanceof AvatarNotUploaded) {
            setToast({ kind: 'error', text: error.message, duration: 8000 });
            return;
          }
          if (error instanceof ApiError && error.errors) {
            setErrors({ fullName: error.field('fullName'), email: error.field('email'), bio: error.field('bio') });
          } else if (error instanceof ApiError && error.status === 409) {
            setErrors({ email: error.message });
          }
          setToast({ kind: 'error', text: AccountTexts.PROFILE_FAILED, duration: 5000 });
        },
      },
    );
  }

  return (
    <section className="card p-6" aria-labelledby="profile-heading">
      <div className="flex items-center justify-between gap-4">
        <h2 id="profile-heading" className="text-lg font-semibold">
          Profile Information
        </h2>
        {!editing && (
          <button type="button" className="btn-secondary whitespace-nowrap" onClick={() => setEditing(true)} disabled={!hydrated}>
            Edit Profile
          </button>
        )}
      </div>
      {editing ? (
        <form {...keepTyped} className="mt-4 space-y-4" onSubmit={save} noValidate>
          <TextField
            label="Full Name"
            name="fullName"
            autoComplete="name"
            value={draft.fullName}
            onChange={set('fullName')}
            error={errors.fullName}
          />
          <TextField
            label="Email"
            type="email"
            name="email"
            autoComplete="email"
            value={draft.email}
            onChange={set('email')}
            error={errors.email}
          />
          <TextAreaField
            id="profile-bio"
            name="bio"
            label="About Me"
            rows={4}
            value={draft.bio}
            onChange={(bio) => setDraft((d) => ({ ...d, bio }))}
            error={errors.bio}
            hint={`${draft.bio.length}/${BIO_MAX}`}
          />
          <div className="flex gap-2">
            <BusyButton type="submit" className="btn-primary" busy={busy}>
              Save
            </BusyButton>
            <button type="button" className="btn-secondary" onClick={cancel} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <dl className="mt-4 grid gap-4 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Full Name</dt>
            <dd className="mt-1 font-medium" data-testid="profile-full-name">
              {saved.fullName}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500 dark:text-slate-400">Email</dt>
            <dd className="mt-1 font-medium" data-testid="profile-email">
              {saved.email}
            </dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-slate-500 dark:text-slate-400">About Me</dt>
            <dd className="mt-1 whitespace-pre-line" data-testid="profile-bio">
              {saved.bio || <span className="text-slate-500 dark:text-slate-400">No bio yet.</span>}
            </dd>
          </div>
        </dl>
      )}
      <Toast toast={toast} onDone={clearToast} />
    </section>
  );
}
