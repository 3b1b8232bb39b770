/**
 * A one-time notice carried across the reload that follows an action ('Post submitted for
 * review.'): kept in sessionStorage (this tab only), shown and removed by the next page's
 * FlashNotice. Nothing goes into the address, so links and reloads never repeat it.
 */
const KEY = 'inkwell:author-flash';

export function setFlash(text: string): void {
  try {
    window.sessionStorage.setItem(KEY, text);
  } catch {
    // storage unavailable: the page still shows the new state, just without the notice
  }
}

export function takeFlash(): string | undefined {
  try {
    const text = window.sessionStorage.getItem(KEY) ?? undefined;
    window.sessionStorage.removeItem(KEY);
    return text;
  } catch {
    return undefined;
  }
}
