import { countNoun, englishNoun, nounFor, vietnameseNoun } from './plural';

describe('counts with their nouns (Intl.PluralRules)', () => {
  const like = englishNoun('like');
  const reply = englishNoun('reply', 'replies');
  const luotThich = vietnameseNoun('lượt thích');

  it('English: one for exactly 1, other for 0, 2, many and fractions', () => {
    expect(countNoun(1, like)).toBe('1 like');
    expect(countNoun(0, like)).toBe('0 likes');
    expect(countNoun(2, like)).toBe('2 likes');
    expect(countNoun(1234, like)).toBe('1,234 likes');
    expect(countNoun(1, reply)).toBe('1 reply');
    expect(countNoun(3, reply)).toBe('3 replies');
    expect(nounFor(1.5, like)).toBe('likes');
    expect(nounFor(-1, like)).toBe('like');
  });

  it('Vietnamese: one form for every count, numbers grouped the Vietnamese way', () => {
    expect(countNoun(1, luotThich)).toBe('1 lượt thích');
    expect(countNoun(2, luotThich)).toBe('2 lượt thích');
    expect(countNoun(0, luotThich)).toBe('0 lượt thích');
    expect(countNoun(12345, luotThich)).toBe('12.345 lượt thích');
  });
});
