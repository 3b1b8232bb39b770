/**
 * The preview links of a post on its edit page: create a link, copy it, see the live
 * ones with their expiry, revoke one. The page renders it only for DRAFT, PENDING_REVIEW and
 * REJECTED posts, with the live links it read; buttons wait for hydration (useHydrated).
 */
import { useState } from 'react';
import { Alert, TextField, useHydrated } from '../../components/islands/form-controls';
import { ApiError } from '../../lib/api/errors';
import { CommonTexts } from '../../lib/texts/common';
import { createPreviewLink, listPreviewLinks, revokePreviewLink, type PreviewLink } from './preview-links-api';
import { PreviewsTexts as T } from './texts';
import { useSubmit } from '../../components/islands/use-submit';

interface Props {
  postId: number;
  /** The live links the page read; undefined when that read failed (the panel reads them again). */
  initialLinks?: PreviewLink[];
}

type Notice = { kind: 'success' | 'error'; text: string } | undefined;

const messageOf = (error: unknown): string => (error instanceof ApiError ? error.message : CommonTexts.UNEXPECTED_ERROR);

export default function PreviewLinksPanel({ postId, initialLinks }: Props) {
  const hydrated = useHydrated();
  const [links, setLinks] = useState<PreviewLink[] | undefined>(initialLinks);
  const [notice, setNotice] = useState<Notice>(initialLinks ? undefined : { kind: 'error', text: T.LOAD_FAILED });
  const submit = useSubmit();

  async function run(action: () => Promise<string>) {
    await submit.run(async () => setNotice({ kind: 'success', text: await action() }), {
      onError: (error) => setNotice({ kind: 'error', text: messageOf(error) }),
    });
  }
  const { busy } = submit;

  const create = () =>
    run(async () => {
      const link = await createPreviewLink(postId);
      setLinks((current) => [link, ...(current ?? [])]);
      return T.CREATED;
    });

  const revoke = (link: PreviewLink) =>
    run(async () => {
      await revokePreviewLink(postId, link.id);
      setLinks(await listPreviewLinks(postId));
      return T.REVOKED;
    });

  async function copy(link: PreviewLink) {
    try {
      await navigator.clipboard.writeText(link.url);
      setNotice({ kind: 'success', text: T.COPIED });
    } catch {
      setNotice({ kind: 'error', text: T.COPY_FAILED });
    }
  }

  return (
    <section className="card mt-8 p-5" aria-labelledby="preview-links-heading" data-preview-links>
      <h2 id="preview-links-heading" className="text-lg font-semibold">
        {T.PANEL_HEADING}
      </h2>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{T.PANEL_HELP}</p>
      <div className="mt-4">
        <button type="button" className="btn-primary" onClick={create} disabled={!hydrated || busy}>
          {busy ? T.CREATING : T.CREATE}
        </button>
      </div>
      <div className="mt-3" aria-live="polite">
        {notice && <Alert kind={notice.kind}>{notice.text}</Alert>}
      </div>
      {links && links.length === 0 && <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">{T.NONE}</p>}
      {links && links.length > 0 && (
        <ul className="mt-4 space-y-3">
          {links.map((link, index) => (
            <li key={link.id} className="rounded-lg border border-slate-200 p-3 dark:border-slate-700" data-preview-link={link.id}>
              <TextField
                label={T.linkLabel(index + 1)}
                type="text"
                readOnly
                value={link.url}
                onFocus={(event) => event.currentTarget.select()}
              />
              <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm text-slate-600 dark:text-slate-400">{T.expires(link.expiresAt)}</span>
                <span className="flex flex-wrap gap-2">
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => copy(link)}
                    disabled={!hydrated}
                    aria-label={T.copyLabel(index + 1)}
                  >
                    {T.COPY}
                  </button>
                  <button
                    type="button"
                    className="btn-secondary"
                    onClick={() => revoke(link)}
                    disabled={!hydrated || busy}
                    aria-label={T.revokeLabel(index + 1)}
                  >
                    {T.REVOKE}
                  </button>
                </span>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
