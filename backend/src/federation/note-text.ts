import sanitizeHtml from 'sanitize-html';
import { MAX_COMMENT_LENGTH } from '../comments/entities/comment.entity';

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * A remote Note's HTML as a comment's plain text (comments are plain text, at most
 * MAX_COMMENT_LENGTH characters): tags dropped (a paragraph or line break becomes a space),
 * entities decoded, white space collapsed, cut to the limit with an ellipsis.
 */
export function noteText(html: string): string {
  const spaced = html.replace(/<\s*(br|\/p|\/div|\/li)\b[^>]*>/gi, ' ');
  const text = sanitizeHtml(spaced, { allowedTags: [], allowedAttributes: {} })
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
  const chars = Array.from(text);
  return chars.length <= MAX_COMMENT_LENGTH ? text : `${chars.slice(0, MAX_COMMENT_LENGTH - 1).join('')}…`;
}
