/**
 * Who is reading a public page. Public pages are the same HTML for everyone, so the
 * islands on them do not get the reader as a prop: they read it here (components/islands/
 * form-controls.tsx `useViewer`). The page's personal parts script (components/PersonalParts.astro,
 * inlined, so it imports nothing) writes what this reads, in the page's markup:
 * - `<html data-signed-in>`: the signed-in hint (set before first paint by lib/theme-script.mjs);
 * - `<html data-personal="filled" | "anonymous">`: the fragment has been put in place, or the page
 *   stays a visitor's (a 204, a failure; data-signed-in is then removed);
 * - `<script type="application/json" data-part-viewer>`: the reader, as the fragment wrote it
 *   (pages/fragments/session.astro, `pageViewerOf`).
 * While the hint is there and the fragment has not answered, the reader is unknown: islands wait
 * rather than act as a visitor.
 */

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
const VISITOR: ViewerState = { known: true, viewer: null };
let filled: ViewerState | undefined;

/** The state now, from the page's markup (the same object until it changes). */
export function viewerState(): ViewerState {
  const root = document.documentElement;
  const personal = root.dataset.personal;
  if (personal === 'filled') {
    if (!filled) {
      const json = document.querySelector('script[data-part-viewer]')?.textContent;
      filled = { known: true, viewer: json ? (JSON.parse(json) as PageViewer) : null };
    }
    return filled;
  }
  return personal === 'anonymous' || !root.hasAttribute('data-signed-in') ? VISITOR : UNKNOWN;
}

/** What the server renders and hydration starts from: unknown (the same HTML for everyone). */
export function serverViewerState(): ViewerState {
  return UNKNOWN;
}

/** Calls `listener` when the personal parts script marks the page filled or a visitor's. */
export function subscribeViewer(listener: () => void): () => void {
  const observer = new MutationObserver(listener);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-personal', 'data-signed-in'] });
  return () => observer.disconnect();
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
  const muted =
    user.commentingMutedForever || user.commentingMutedUntil
      ? { until: user.commentingMutedForever ? null : (user.commentingMutedUntil ?? null), reason: user.commentingMutedReason ?? '' }
      : null;
  return { id: user.id, isAdmin: user.role === 'ADMIN', muted };
}
