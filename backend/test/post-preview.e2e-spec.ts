import { createTestApp, TestApp } from './helpers/app';
import { api, err, ok, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

const AUTH_REQUIRED_SAVE = 'Authentication required: Please log in to create/update posts.';

/** POST /blog/posts/preview: the editor's preview through the server's own renderer. */
describe('Post preview API', () => {
  let t: TestApp;
  let admin: TestUser;
  let author: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    author = await createAuthor(t);
  });
  afterAll(() => t.close());

  const preview = (user: TestUser, body: unknown) =>
    t.http
      .post(api('/blog/posts/preview'))
      .set(user.auth)
      .send(body as object);

  it("401 without a session, 403 'You do not have permission to create posts.' for a USER", async () => {
    expect((await t.http.post(api('/blog/posts/preview')).send({ content: '# Hi' }).expect(401)).body).toEqual(
      err(401, AUTH_REQUIRED_SAVE),
    );
    const reader = await createReader(t);
    expect((await preview(reader, { content: '# Hi' }).expect(403)).body).toEqual(err(403, 'You do not have permission to create posts.'));
  });

  it('400 with the content rules of a save: required, a string, at most 200,000 characters, no other fields', async () => {
    for (const body of [{}, { content: '' }, { content: '   ' }, { content: 42 }, { content: null }, { content: ['# a'] }]) {
      expect((await preview(author, body).expect(400)).body).toEqual(err(400, 'Content is required', { content: ['Content is required'] }));
    }
    expect((await preview(author, { content: 'a'.repeat(200001) }).expect(400)).body).toEqual(
      err(400, 'Content must be at most 200000 characters', { content: ['Content must be at most 200000 characters'] }),
    );
    // 200,000 characters, astral ones counted once as on a save.
    expect((await preview(author, { content: '😀'.repeat(200000) }).expect(200)).body.data.wordCount).toBe(1);
    expect((await preview(author, { content: '# a', title: 'x' }).expect(400)).body).toEqual(
      err(400, 'property title should not exist', { title: ['property title should not exist'] }),
    );
  });

  it('sanitizes like a save: scripts, handlers and javascript: links removed, headings one level down with ids', async () => {
    const content = [
      '# Title here',
      '## Part',
      '<script>alert(1)</script>',
      '<img src="x.png" onerror="alert(2)">',
      '[click](javascript:alert(3)) and <a href="javascript:alert(4)">raw</a>',
      '<h1 onclick="x()">Raw heading</h1>',
      '<iframe src="https://evil.example"></iframe>',
    ].join('\n\n');
    const { html } = (await preview(author, { content }).expect(200)).body.data;
    expect(html).toContain('<h2 id="title-here">Title here</h2>');
    expect(html).toContain('<h3 id="part">Part</h3>');
    expect(html).toContain('<h2>Raw heading</h2>');
    expect(html).not.toMatch(/<h1|<script|alert\(1|alert\(2|onerror|onclick|href="javascript|<iframe|evil/i);
    // The Markdown link with a javascript: URL stays text; the raw one loses its href.
    expect(html).toContain('<p>[click](javascript:alert(3)) and <a rel="noopener noreferrer">raw</a></p>');
    expect(html).toContain('<img src="x.png" />');
  });

  it('answers exactly what a save stores as contentHtml and readingTime, with the word count (authors and admins)', async () => {
    const words = Array.from({ length: 401 }, (_v, i) => `word${i}`).join(' ');
    // 21 words besides the 401: '#', 'Heading', 7 in the sentence, 11 in the table (pipes count), the script element.
    const content = `  # Heading\n\nSome *text* with a [link](https://example.com) and \`code\`.\n\n| a | b |\n|:-|-:|\n| 1 | 2 |\n\n${words}\n\n<script>x()</script>  `;
    for (const user of [author, admin]) {
      const res = await preview(user, { content }).expect(200);
      expect(res.body).toEqual(ok({ html: expect.any(String), readingTime: 3, wordCount: 401 + 21 }));
      const token = uid();
      const saved = (
        await t.http
          .post(api('/blog/posts/author/create'))
          .set(user.auth)
          .send({ title: `Preview ${token}`, slug: `preview-${token}`, content })
          .expect(201)
      ).body.data;
      expect(res.body.data.html).toBe(saved.contentHtml);
      expect(res.body.data.readingTime).toBe(saved.readingTime);
    }
    // At least one minute, as on the post.
    expect((await preview(author, { content: 'one' }).expect(200)).body.data).toEqual({
      html: '<p>one</p>\n',
      readingTime: 1,
      wordCount: 1,
    });
  });

  it('is not taken for a post id: GET /blog/posts/preview is 400 (ids are numbers), nothing is stored', async () => {
    const before = (await t.http.get(api('/blog/posts/author/my-posts')).set(author.auth).expect(200)).body.data.totalElements;
    await preview(author, { content: '# Not stored' }).expect(200);
    expect((await t.http.get(api('/blog/posts/author/my-posts')).set(author.auth).expect(200)).body.data.totalElements).toBe(before);
    expect((await t.http.get(api('/blog/posts/preview')).set(author.auth).expect(400)).body.message).toBe(
      'Invalid id: it must be a positive whole number.',
    );
  });
});
