import { canonicalEmail, charCount, hasInvisible, limitChars, trimInvisible } from './text';

describe('text lengths and invisible characters', () => {
  it('counts code points: an emoji is one character', () => {
    expect(charCount('😀'.repeat(101))).toBe(101);
    expect(charCount('Tiếng Việt')).toBe(10);
    expect(charCount('\ud800')).toBe(1);
  });

  it('caps at whole characters, never half an emoji', () => {
    expect(limitChars('😀'.repeat(250), 200)).toBe('😀'.repeat(200));
    expect(limitChars('ab', 200)).toBe('ab');
  });

  it('trims whitespace and invisible characters off the edges, keeping emoji with a variation selector', () => {
    expect(trimInvisible('\u200B\uFEFF hi \u200D\u2060')).toBe('hi');
    expect(trimInvisible('❤️')).toBe('❤️');
    expect(trimInvisible('\u200B\u200B')).toBe('');
    expect(hasInvisible('ad\u200Bmin')).toBe(true);
    expect(hasInvisible('admin')).toBe(false);
  });

  it('canonical e-mails are NFKC, trimmed and lower-cased', () => {
    expect(canonicalEmail(' Ａdmin@Example.COM ')).toBe('admin@example.com');
  });
});
