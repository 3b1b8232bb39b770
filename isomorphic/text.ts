/**
 * How the API and the pages measure and clean what people type (one copy for both: a counter or
 * a client-side check never disagrees with the server).
 */

/**
 * Characters that show nothing: soft hyphen, combining grapheme joiner, Arabic letter mark, Hangul
 * fillers, Khmer inherent vowels, Mongolian vowel separator, zero-width space/non-joiner/joiner,
 * directional marks and embeddings, word joiner and invisible operators, braille blank, BOM.
 * Variation selectors and emoji tags are not here: they end visible emoji (❤️, flags).
 */
const INVISIBLE_CLASS =
  '\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\u2800\\u3164\\uFEFF\\uFFA0';
// The class lists single code points, a combining one (U+034F) among them, never a combined sequence.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');
// eslint-disable-next-line no-misleading-character-class
const EDGES = new RegExp(`^[\\s${INVISIBLE_CLASS}]+|[\\s${INVISIBLE_CLASS}]+$`, 'gu');

/** Characters as a person counts them and PostgreSQL's varchar(n) limits them: code points (an emoji is one). */
export function charCount(text: string): number {
  let count = 0;
  for (const _character of text) count++;
  return count;
}

/** The first `max` characters (code points, never half an emoji): an input's cap where maxLength would count UTF-16 units. */
export function limitChars(text: string, max: number): string {
  return charCount(text) > max ? Array.from(text).slice(0, max).join('') : text;
}

/** Whitespace and invisible characters off both ends (a comment of zero-width spaces is empty). */
export function trimInvisible(text: string): string {
  return text.replace(EDGES, '');
}

export function hasInvisible(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * An e-mail as it is stored and looked up: NFKC-normalised (full-width and other compatibility
 * forms become their plain letters), trimmed of whitespace and lower-cased. Invisible characters
 * stay, for the validator to refuse (EmailField).
 */
export function canonicalEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}
