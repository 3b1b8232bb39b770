import { wordDiff } from './revisions.service';

type Part = ReturnType<typeof wordDiff>[number];
const before = (parts: Part[]) =>
  parts
    .filter((p) => !p.added)
    .map((p) => p.value)
    .join('');
const after = (parts: Part[]) =>
  parts
    .filter((p) => !p.removed)
    .map((p) => p.value)
    .join('');
const changed = (parts: Part[], flag: 'added' | 'removed') =>
  parts
    .filter((p) => p[flag])
    .map((p) => p.value.trim())
    .filter(Boolean);

describe('wordDiff (paragraphs by diffLines, words by diffWordsWithSpace)', () => {
  const pairs: [string, string, string][] = [
    ['identical', 'One paragraph.\n\nTwo paragraph.\n', 'One paragraph.\n\nTwo paragraph.\n'],
    ['a word in one paragraph', 'The quick brown fox.\n\nSecond stays.\n', 'The quick red fox.\n\nSecond stays.\n'],
    ['a paragraph inserted', 'First.\n\nLast.', 'First.\n\nA new middle paragraph.\n\nLast.'],
    ['a paragraph removed, another edited', 'Keep one.\n\nDrop me.\n\nEdit me please.', 'Keep one.\n\nEdit me now.'],
    ['every paragraph edited in place', 'a b c.\nd e f.\ng h i.\n', 'a x c.\nd e y.\nz h i.\n'],
    ['from empty', '', 'All new text.\n'],
    ['to empty', 'All old text.', ''],
    ['no final newline, Vietnamese', 'Xin chào Đà Nẵng', 'Xin chào Hà Nội\n'],
  ];

  it.each(pairs)('%s: its runs rebuild both texts', (_name, a, b) => {
    const parts = wordDiff(a, b);
    expect(before(parts)).toBe(a);
    expect(after(parts)).toBe(b);
    // Adjacent runs of the same kind are joined.
    parts.slice(1).forEach((part, i) => expect([part.added, part.removed]).not.toEqual([parts[i].added, parts[i].removed]));
  });

  it('marks only the changed words', () => {
    expect(wordDiff('The quick brown fox.\n\nSecond stays.\n', 'The quick red fox.\n\nSecond stays.\n')).toEqual([
      { value: 'The quick ', added: false, removed: false },
      { value: 'brown', added: false, removed: true },
      { value: 'red', added: true, removed: false },
      { value: ' fox.\n\nSecond stays.\n', added: false, removed: false },
    ]);
    const inPlace = wordDiff('a b c.\nd e f.\ng h i.\n', 'a x c.\nd e y.\nz h i.\n');
    expect(changed(inPlace, 'removed')).toEqual(['b', 'f', 'g']);
    expect(changed(inPlace, 'added')).toEqual(['x', 'y', 'z']);
    expect(wordDiff('same', 'same')).toEqual([{ value: 'same', added: false, removed: false }]);
  });
});
