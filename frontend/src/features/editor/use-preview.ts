/**
 * The server's rendering of the content while a preview is shown: asked 200 ms after the last
 * change (docs/requirements.md#constants-sorting 'preview delay'); an answer for older content is dropped.
 */
import { useEffect, useState } from 'react';
import { EditorTexts, editorErrors } from './texts';
import { errorText } from '../../lib/texts/error-text';
import { renderPreview, type RenderedPreview } from './editor-api';

export const PREVIEW_DELAY_MS = 200;

export type PreviewState =
  | { kind: 'idle' }
  | { kind: 'loading'; last?: RenderedPreview }
  | { kind: 'ready'; preview: RenderedPreview }
  | { kind: 'error'; message: string };

export function usePreview(content: string, active: boolean): PreviewState {
  const [state, setState] = useState<PreviewState>({ kind: 'idle' });

  useEffect(() => {
    if (!active) return;
    if (!content.trim()) {
      setState({ kind: 'idle' });
      return;
    }
    setState((current) => ({
      kind: 'loading',
      last: current.kind === 'ready' ? current.preview : current.kind === 'loading' ? current.last : undefined,
    }));
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      renderPreview(content, controller.signal).then(
        (preview) => setState({ kind: 'ready', preview }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState({ kind: 'error', message: errorText(error, editorErrors(EditorTexts.PREVIEW_FAILED)) });
        },
      );
    }, PREVIEW_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [content, active]);

  return active ? state : { kind: 'idle' };
}
