import { SLUG_PATTERN, slugAfterTitleChange, slugify, TAG_SLUG_MAX_LENGTH } from './slug';

describe('slugs (docs/requirements.md#slugs)', () => {
  it('lower-cases, removes accents, keeps a-z 0-9 and single hyphens, trims the edges', () => {
    expect(slugify('Hello World')).toBe('hello-world');
    expect(slugify('  Xin chào Đà Nẵng!  ')).toBe('xin-chao-da-nang');
    expect(slugify('Crème brûlée -- à la carte')).toBe('creme-brulee-a-la-carte');
    expect(slugify('C++ & C# (2024)')).toBe('c-c-2024');
    expect(slugify('snake_case and   spaces')).toBe('snake-case-and-spaces');
    expect(slugify('snake_case\tand\n spaces')).toBe('snake-case-and-spaces');
    expect(slugify('Tiếng Việt có dấu: ắ ằ ẳ ẵ ặ ơ ư đ')).toBe('tieng-viet-co-dau-a-a-a-a-a-o-u-d');
    expect(slugify('---')).toBe('');
    expect(slugify('日本語のタイトル')).toBe('');
  });

  it('cuts to the limit without a trailing hyphen (200 for posts, 100 for tags)', () => {
    expect(slugify('a'.repeat(250)).length).toBe(200);
    expect(slugify(`${'a'.repeat(199)} b`)).toBe('a'.repeat(199));
    expect(slugify(`${'a'.repeat(99)} b`, TAG_SLUG_MAX_LENGTH)).toBe('a'.repeat(99));
  });

  it('derives only slugs the server accepts, within both limits', () => {
    const titles = [
      'Hello World',
      'Ünïcödé ñ ç ø å ß',
      '—em–dash—',
      '😀 emoji 👩‍👩‍👧',
      `${'word '.repeat(60)}end`,
      `${'x'.repeat(99)}-${'y'.repeat(120)}`,
    ];
    for (const title of titles) {
      for (const limit of [undefined, TAG_SLUG_MAX_LENGTH]) {
        const slug = slugify(title, limit);
        expect(slug.length).toBeLessThanOrEqual(limit ?? 200);
        if (slug) expect(SLUG_PATTERN.test(slug)).toBe(true);
      }
    }
  });

  it('follows the title only while empty or still the old title’s slug', () => {
    expect(slugAfterTitleChange('', '', 'My Post')).toBe('my-post');
    expect(slugAfterTitleChange('my-post', 'My Post', 'My Post 2')).toBe('my-post-2');
    expect(slugAfterTitleChange('custom', 'My Post', 'My Post 2')).toBe('custom');
    expect(slugAfterTitleChange('   ', 'Whatever', 'New')).toBe('new');
    // A tag's name: the same rule within the tag limit of 100.
    expect(slugAfterTitleChange(slugify('x'.repeat(150), TAG_SLUG_MAX_LENGTH), 'x'.repeat(150), 'Tag name', TAG_SLUG_MAX_LENGTH)).toBe(
      'tag-name',
    );
  });
});
