/**
 * Who is reading a public page (issue 26 §2). Public pages are the same HTML for everyone, so the
 * islands on them do not get the reader as a prop: the page's personal fragment
 * (components/PersonalParts.astro) publishes it here once it has arrived, and the islands read it
 * (components/islands/use-viewer.ts). While the signed-in hint cookie says a session exists and the
 * fragment has not answered yet, the viewer is unknown: islands wait rather than act as a visitor.
 */
import { SIGNED_IN_HINT_COOKIE } from '../../../shared/public-pages';

/** The reader as the post page's islands need them: who, whether an administrator, and a mute in force. */
export interface PageViewer {
  id: number;
  isAdmin: boolean;
  /** Until when (null: for good) and why the reader may not comment; null when they may. */
  muted: { until: string | null; reason: string } | null;
}

/** Unknown (the fragment is on its way), or known: a reader, or null for a visitor. */
export type ViewerState = { known: false } | { known: true; viewer: PageViewer | null };

const UNKNOWN: ViewerState = { known: false };
const HINT = new RegExp(`(?:^|;\\s*)${SIGNED_IN_HINT_COOKIE}=1(?:;|$)`);

/** Whether the browser holds the signed-in hint (a session exists; the fragment will say whose). */
export function hasSignedInHint(): boolean {
  return typeof document !== 'undefined' && HINT.test(document.cookie);
}

let state: ViewerState | undefined;
const listeners = new Set<() => void>();

/** The state now: without the hint the visitor is known to be anonymous at once. */
export function viewerState(): ViewerState {
  state ??= hasSignedInHint() ? UNKNOWN : { known: true, viewer: null };
  return state;
}

/** What the server renders and hydration starts from: unknown (the same HTML for everyone). */
export function serverViewerState(): ViewerState {
  return UNKNOWN;
}

/** The fragment's answer: the reader (null when the session turned out to be gone). */
export function publishViewer(viewer: PageViewer | null): void {
  state = { known: true, viewer };
  for (const listener of listeners) listener();
}

export function subscribeViewer(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Resolves with the reader once known (at once when it is). */
export function whenViewerKnown(): Promise<PageViewer | null> {
  const now = viewerState();
  if (now.known) return Promise.resolve(now.viewer);
  return new Promise((resolve) => {
    const stop = subscribeViewer(() => {
      const next = viewerState();
      if (!next.known) return;
      stop();
      resolve(next.viewer);
    });
  });
}

/** The reader a session's profile describes, as the islands read it (the fragment's JSON). */
export function pageViewerOf(user: {
  id: number;
  role?: string | null;
  commentingMutedForever?: boolean | null;
  commentingMutedUntil?: string | null;
  commentingMutedReason?: string | null;
}): PageViewer {
  const muted = user.commentingMutedForever || user.commentingMutedUntil ? { until: user.commentingMutedForever ? null : (user.commentingMutedUntil ?? null), reason: user.commentingMutedReason ?? '' } : null;
  return { id: user.id, isAdmin: user.role === 'ADMIN', muted };
}
