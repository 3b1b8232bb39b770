/** 'Follow on the fediverse: @slug@host' with a copy button (the author page; docs/federation.md). */
import { useState } from 'react';
import { FederationTexts as T } from './texts';

export default function FollowHandle({ handle }: { handle: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(handle);
      setState('copied');
    } catch {
      setState('failed');
    }
  }
  return (
    <p className="mt-4 flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-300" data-fediverse-follow>
      <span>{T.FOLLOW_LABEL}</span>
      <code className="rounded bg-slate-100 px-2 py-1 font-mono text-slate-900 dark:bg-slate-800 dark:text-slate-100" data-fediverse-handle>
        {handle}
      </code>
      <button type="button" className="btn-secondary" onClick={copy} aria-label={T.copyLabel(handle)} data-fediverse-copy>
        {state === 'copied' ? T.COPIED : T.COPY}
      </button>
      <span role="status" className="sr-only">
        {state === 'copied' ? T.COPIED : state === 'failed' ? T.COPY_FAILED : ''}
      </span>
    </p>
  );
}
