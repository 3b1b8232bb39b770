import { useSyncExternalStore } from 'react';
import { serverViewerState, subscribeViewer, viewerState, type ViewerState } from '../../lib/viewer';

/**
 * The reader of a public page (lib/viewer.ts), for an island: unknown on the server and while
 * hydrating (so the hydrated HTML is the server's), then the browser's state, re-rendering when
 * the personal fragment publishes the reader.
 */
export function useViewer(): ViewerState {
  return useSyncExternalStore(subscribeViewer, viewerState, serverViewerState);
}
