import { MAX_COMMENT_LENGTH } from '../comments/entities/comment.entity';
import { noteText } from './note-text';

describe('noteText: a remote Note as a comment (docs/federation.md#what-comes-back)', () => {
  it('keeps a text up to the comment limit whole and cuts a longer one to the limit, the last character an ellipsis', () => {
    expect(MAX_COMMENT_LENGTH).toBe(200);
    const exact = 'a'.repeat(200);
    expect(noteText(`<p>${exact}</p>`)).toBe(exact);
    const long = noteText(`<p>${'b'.repeat(150)}</p><p>${'c'.repeat(150)}</p>`);
    expect(Array.from(long)).toHaveLength(200);
    expect(long).toBe(`${'b'.repeat(150)} ${'c'.repeat(48)}…`);
  });

  it('counts characters, not UTF-16 units: an emoji is one and is never split', () => {
    const text = noteText('😀'.repeat(250));
    expect(Array.from(text)).toHaveLength(200);
    expect(text).toBe(`${'😀'.repeat(199)}…`);
  });

  it('drops tags, decodes entities and collapses white space before counting', () => {
    expect(noteText('<p>Hello&nbsp;<a href="https://x.test">@you</a> &amp; <b>all</b></p><p>second</p>')).toBe('Hello @you & all second');
    expect(noteText(`<p>${'&amp;'.repeat(200)}</p>`)).toBe('&'.repeat(200));
  });
});
