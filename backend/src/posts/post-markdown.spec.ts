import { markdownToPost, postToMarkdown } from './post-markdown';

describe('A post as Markdown with front matter', () => {
  it('round-trips odd titles, tags and a body that itself contains a fence', () => {
    const front = {
      title: 'Tiếng Việt: "quotes", colons & #hash',
      slug: 'tieng-viet',
      status: 'PUBLISHED',
      tags: ['a', 'yes', '123'],
      featured: false,
      publishedAt: '2014-03-01T09:00:00.000Z',
      summary: null,
    };
    const body = '# Heading\n\n---\n\nText after a rule.\n';
    const text = postToMarkdown(front, body);
    expect(text.startsWith('---\ntitle: ')).toBe(true);
    expect(text).not.toContain('summary');
    const back = markdownToPost(text);
    expect(back.front).toEqual({
      title: front.title,
      slug: 'tieng-viet',
      status: 'PUBLISHED',
      tags: ['a', 'yes', '123'],
      featured: false,
      publishedAt: '2014-03-01T09:00:00.000Z',
    });
    expect(back.body).toBe('# Heading\n\n---\n\nText after a rule.');
  });

  it('refuses a file without front matter or without title and slug', () => {
    expect(() => markdownToPost('# Just text')).toThrow('no front matter');
    expect(() => markdownToPost('---\ntitle: x\n')).toThrow('unterminated');
    expect(() => markdownToPost('---\ntitle: x\n---\nbody')).toThrow('without title and slug');
  });
});
