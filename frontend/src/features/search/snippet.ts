/**
 * A search hit's snippet as HTML that can carry nothing but text and <mark>. The API sends the
 * text HTML-escaped with the matches wrapped in <mark>…</mark>; in depth, whatever else arrives
 * is made inert here: every '<' and '>' outside an exact `<mark>`/`</mark>` is escaped (so no
 * other tag, attribute or comment can form), stray closing marks are dropped and an open one is
 * closed. Entities the API wrote ('&amp;', '&lt;') stay as they are: they are text already.
 */
const MARK_TOKEN = /(<mark>|<\/mark>)/;

export function safeSnippetHtml(snippet: string): string {
  let html = '';
  let open = false;
  for (const part of snippet.split(MARK_TOKEN)) {
    if (part === '<mark>') {
      if (!open) html += '<mark>';
      open = true;
    } else if (part === '</mark>') {
      if (open) html += '</mark>';
      open = false;
    } else {
      html += part.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    }
  }
  return open ? `${html}</mark>` : html;
}
