import { ZipArchive } from 'archiver';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { DataSource } from 'typeorm';
import { api } from './helpers/envelope';
import { createTestApp, TestApp } from './helpers/app';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, TestUser } from './helpers/users';
import { buildWxr, WxrComment, WxrSite } from './fixtures/wxr-builder';
import { OVERSIZED_ITEM } from '../src/imports/sources/source-records';

/**
 * What an import keeps of a real WordPress export and what it refuses (a theme-test site's export,
 * written by the fixture builder): tables, a password-protected post, pages with undated and nested
 * permalinks, a Greek slug, markup in a title, pingbacks and trackbacks, terms that differ only in
 * case, a 10-level comment thread; every source item imported or in the report; the site's own
 * export imported into it again adds nothing and moves no redirect; an Inkwell export never makes
 * an administrator; imported authors are listed.
 */
const SITE = 'https://theme-test.example.org';
const GREEK = '%ce%b5%cf%80%ce%af%cf%80%ce%b5%ce%b4%ce%bf-2';

const TABLES = `Before the tables.

<table>
<thead>
<tr>
<th>Name</th>
<th>Value</th>
</tr>
</thead>
<tbody>

<tr>
<td>Alpha</td>
<td><strong>1</strong></td>
</tr>

<tr>
<td>Beta</td>
<td>2</td>
</tr>
</tbody>
</table>

Between them.

<table style="width: 100%"><tr><td colspan="2" class="wide">Merged heading cell</td></tr><tr><td>left</td><td>right</td></tr></table>`;

/** A thread ten replies deep (comment 1000 at the top, each next one replying to the one before). */
const deepThread: WxrComment[] = Array.from({ length: 10 }, (_, i) => ({
  id: 1000 + i,
  parent: i ? 1000 + i - 1 : 0,
  content: `Level ${i + 1}`,
  date: `2015-03-08 10:${String(i).padStart(2, '0')}:00`,
}));

const site: WxrSite = {
  url: SITE,
  authors: [{ login: 'themedemos', email: 'themedemos@theme-test.example.org', name: 'Theme Buster' }],
  terms: [
    { domain: 'category', slug: 'markup', name: 'Markup' },
    { domain: 'post_tag', slug: 'markup-2', name: 'markup' },
    { domain: 'post_tag', slug: 'markup-3', name: 'MARKUP' },
    { domain: 'category', slug: 'uncategorized', name: 'Uncategorized' },
  ],
  items: [
    {
      id: 1,
      title: 'Tables',
      slug: 'tables',
      path: '/2015/03/07/tables/',
      creator: 'themedemos',
      content: TABLES,
      terms: [
        { domain: 'category', slug: 'markup', name: 'Markup' },
        { domain: 'post_tag', slug: 'markup-2', name: 'markup' },
        { domain: 'post_tag', slug: 'markup-3', name: 'MARKUP' },
      ],
    },
    {
      id: 2,
      title: 'Protected: Secret plans',
      slug: 'password-protected',
      path: '/2015/03/07/password-protected/',
      creator: 'themedemos',
      password: 'enter',
      content: 'The protected text: nobody reads this without the password.',
    },
    {
      id: 3,
      title: 'Some page',
      slug: 'some-page',
      path: '/some-page/',
      type: 'page',
      creator: 'themedemos',
      content: 'A page at the top.',
    },
    {
      id: 4,
      title: 'Page with comments',
      slug: 'page-with-comments',
      path: '/about/page-with-comments/',
      type: 'page',
      creator: 'themedemos',
      content: 'A page under About, with a deep thread and notices from other sites.',
      comments: [
        ...deepThread,
        { id: 2001, type: 'pingback', author: 'Other blog', email: '', content: '[...] linked here [...]' },
        { id: 2002, type: 'pingback', author: 'Another blog', email: '', content: '[...] also linked [...]' },
        { id: 2003, type: 'trackback', author: 'Old blog', email: '', content: 'Trackback text' },
        { id: 2004, type: 'trackback', author: 'Older blog', email: '', content: 'Trackback text 2' },
      ],
    },
    {
      id: 5,
      title: 'Level 3',
      slug: 'level-3',
      path: '/level-1/level-2/level-3/',
      type: 'page',
      creator: 'themedemos',
      content: 'Three levels down.',
    },
    {
      id: 6,
      title: 'Επίπεδο 2',
      slug: GREEK,
      path: `//greek/${GREEK}/`,
      type: 'page',
      creator: 'themedemos',
      content: 'Ελληνικό κείμενο.',
    },
    {
      id: 7,
      title: 'Markup: Title <em>With</em> <b>Mark<sup>up</sup></b> &amp; more',
      slug: 'title-with-markup',
      path: '/2015/03/07/title-with-markup/',
      creator: 'themedemos',
      content: 'Titles are plain text.',
    },
    {
      id: 8,
      title: 'About',
      slug: 'about',
      path: '/about/',
      type: 'page',
      creator: 'themedemos',
      content: 'The former about page: /about is a page of this site.',
    },
    {
      id: 90,
      title: 'unused-image',
      slug: 'unused-image',
      path: '/unused-image/',
      type: 'attachment',
      status: 'inherit',
      attachmentUrl: `${SITE}/wp-content/uploads/2015/03/unused.jpg`,
    },
    { id: 91, title: 'Home', slug: 'home', path: '/?p=91', type: 'nav_menu_item', status: 'publish' },
  ],
};

describe('Import fidelity', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  let report: Record<string, any>;

  const upload = (source: string, file: string) =>
    t.http
      .post(api(`/admin/imports?source=${source}`))
      .set(admin.auth)
      .attach('file', file);

  async function importAndWait(source: string, file: string): Promise<Record<string, any>> {
    const started = await upload(source, file).expect(202);
    for (const until = Date.now() + 60_000; ;) {
      const res = await t.http
        .get(api(`/admin/imports/${started.body.data.id}`))
        .set(admin.auth)
        .expect(200);
      if (!['QUEUED', 'RUNNING'].includes(res.body.data.state)) return res.body.data;
      if (Date.now() > until) throw new Error('import did not end');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const post = async (slug: string) =>
    (
      (await db.query(`SELECT id, slug, title, status, content, content_html FROM posts WHERE slug = $1`, [slug])) as Record<string, any>[]
    )[0];
  const renamed = (kind: string, sourceId: string) =>
    (report.renamed as Record<string, string>[]).filter((row) => row.kind === kind && row.sourceId === sourceId);
  const skipped = (kind: string, sourceId: string) =>
    (report.skipped as Record<string, string>[]).filter((row) => row.kind === kind && row.sourceId === sourceId);

  beforeAll(async () => {
    t = await createTestApp({ databaseUrl: await createFreshDatabase('inkwell_import_fidelity'), env: { JOB_POLL_SECONDS: '1' } });
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
    const file = join(t.dataDir, 'theme-test.xml');
    writeFileSync(file, buildWxr(site));
    report = await importAndWait('wordpress', file);
    expect(report.state).toBe('DONE');
  }, 120_000);
  afterAll(() => t?.close());

  it('keeps tables: a GFM table, and a table with merged cells as HTML the renderer keeps', async () => {
    const tables = await post('tables');
    expect(tables.content).toMatch(/^\| Name \| Value \|\n\| --- \| --- \|\n\| Alpha \| \*\*1\*\* \|\n\| Beta \| 2 +\|$/m);
    expect(tables.content).not.toMatch(/\\\n\\\n| {2}\n {0,2}\n/);
    expect(tables.content).toContain(
      '<table><tbody><tr><td colspan="2">Merged heading cell</td></tr><tr><td>left</td><td>right</td></tr></tbody></table>',
    );
    expect(tables.content_html).toContain('<th>Name</th>');
    expect(tables.content_html).toContain('<td colspan="2">Merged heading cell</td>');
  });

  it('imports a password-protected post as a draft, and says so', async () => {
    const protectedPost = await post('password-protected');
    expect(protectedPost.status).toBe('DRAFT');
    await t.http.get(api('/blog/posts/public/password-protected')).expect(404);
    expect(renamed('post', '2')).toEqual([
      expect.objectContaining({
        to: 'DRAFT',
        reason: expect.stringMatching(/^Password-protected on the former site: imported as a draft/),
      }),
    ]);
  });

  it('records every former address, undated and nested ones too, as clean decoded paths', async () => {
    const paths = (
      (await db.query(`SELECT r.path, p.slug FROM post_path_redirects r JOIN posts p ON p.id = r.post_id ORDER BY r.path`)) as {
        path: string;
        slug: string;
      }[]
    ).map((row) => `${row.path} -> ${row.slug}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/some-page -> some-page',
        '/about/page-with-comments -> page-with-comments',
        '/level-1/level-2/level-3 -> level-3',
        '/greek/επίπεδο-2 -> epipedo-2',
        '/blog/επίπεδο-2 -> epipedo-2',
      ]),
    );
    expect(paths.filter((path) => path.includes('//'))).toEqual([]);
    for (const [path, slug] of [
      ['/some-page/', 'some-page'],
      ['/about/page-with-comments/', 'page-with-comments'],
      ['/level-1/level-2/level-3/', 'level-3'],
      [`/greek/${GREEK.toUpperCase()}/`, 'epipedo-2'],
      [`//greek/${GREEK}/`, 'epipedo-2'],
      [`/blog/${GREEK.toUpperCase()}`, 'epipedo-2'],
    ]) {
      const moved = await t.http.get(api('/blog/posts/public/moved-path')).query({ path }).expect(200);
      expect(moved.body.data).toEqual({ slug });
    }
  });

  it('writes a Greek slug in Latin letters and reports it; the original address, and /blog/{the original slug}, redirect', async () => {
    const greek = await post('epipedo-2');
    expect(greek).toMatchObject({ title: 'Επίπεδο 2', status: 'PUBLISHED' });
    expect(await post('2')).toBeUndefined();
    expect(renamed('post', '6')).toEqual([
      expect.objectContaining({ from: 'επίπεδο-2', to: 'epipedo-2', reason: expect.stringContaining('Latin letters') }),
    ]);
  });

  it('makes titles plain text: markup dropped, entities decoded', async () => {
    expect((await post('title-with-markup')).title).toBe('Markup: Title With Markup & more');
  });

  it('keeps a 10-level thread: every reply, the deepest beside their parent at the last level', async () => {
    const [{ id }] = (await db.query(`SELECT id FROM posts WHERE slug = 'page-with-comments'`)) as { id: number }[];
    const comments = (await db.query(`SELECT content, level FROM comments WHERE post_id = $1 ORDER BY created_at`, [id])) as {
      content: string;
      level: number;
    }[];
    expect(comments.map((row) => row.content)).toEqual(deepThread.map((comment) => comment.content));
    expect(Math.max(...comments.map((row) => row.level))).toBeLessThanOrEqual(3);
  });

  it('lists every item it left out or merged, with why: pingbacks, trackbacks, case twins, media, menu items', () => {
    for (const id of ['2001', '2002'])
      expect(skipped('comment', id)).toEqual([expect.objectContaining({ reason: expect.stringMatching(/^A pingback/) })]);
    for (const id of ['2003', '2004'])
      expect(skipped('comment', id)).toEqual([expect.objectContaining({ reason: expect.stringMatching(/^A trackback/) })]);
    expect(skipped('image', '90')).toEqual([expect.objectContaining({ reason: expect.stringContaining('featured image') })]);
    expect(skipped('post', '91')).toEqual([expect.objectContaining({ reason: "A WordPress 'nav_menu_item' item (not a post or page)." })]);
    expect(renamed('tag', 'markup-2')).toEqual([
      expect.objectContaining({ from: 'markup (markup-2)', to: 'Markup (markup)', reason: expect.stringMatching(/^Merged/) }),
    ]);
    expect(renamed('tag', 'markup-3')).toEqual([
      expect.objectContaining({ from: 'MARKUP (markup-3)', to: 'Markup (markup)', reason: expect.stringMatching(/^Merged/) }),
    ]);
    // Each of the file's 8 posts and pages is imported or listed.
    expect(report.counts.posts).toBe(8);
    expect(report.total).toBe(8);
  });

  it('lists the imported authors with published posts on /authors (their accounts stay pending)', async () => {
    const authors = (await t.http.get(api('/blog/authors')).expect(200)).body.data as { fullName: string; postCount: number }[];
    expect(authors).toEqual(expect.arrayContaining([expect.objectContaining({ fullName: 'Theme Buster', postCount: 7 })]));
    const [account] = (await db.query(`SELECT status, is_verified FROM users WHERE email = 'themedemos@theme-test.example.org'`)) as {
      status: string;
      is_verified: boolean;
    }[];
    expect(account).toEqual({ status: 'PENDING', is_verified: false });
  });

  it("adds nothing when the site's own export is imported into it, and moves no redirect", async () => {
    const before = await db.query(`SELECT path, post_id FROM post_path_redirects ORDER BY path`);
    const postsBefore = await db.query(`SELECT id, slug FROM posts ORDER BY id`);
    const exported = await t.http
      .get(api('/admin/export'))
      .set(admin.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const file = join(t.dataDir, 'own-export.zip');
    writeFileSync(file, exported.body as Buffer);
    const again = await importAndWait('inkwell', file);
    expect(again.state).toBe('DONE');
    expect(again.counts).toMatchObject({ posts: 0, comments: 0, tags: 0, users: 0, redirects: 0 });
    expect(again.skipped.filter((row: { kind: string }) => row.kind === 'post')).toHaveLength(postsBefore.length);
    expect(again.skipped[0].reason).toBe("Already on this site: the file is this site's own export.");
    expect(await db.query(`SELECT id, slug FROM posts ORDER BY id`)).toEqual(postsBefore);
    expect(await db.query(`SELECT path, post_id FROM post_path_redirects ORDER BY path`)).toEqual(before);
  });

  it('skips a Ghost post and an Inkwell post over 5 MB with the reason WordPress items get, and imports the posts around them', async () => {
    const huge = `<p>${'Lorem ipsum dolor sit amet. '.repeat(200_000)}</p>`;
    const when = '2020-05-01T10:00:00.000Z';
    const ghostPost = (n: number, html: string) => ({
      id: `cap${String(n).padStart(21, '0')}`,
      title: `Ghost cap ${n}`,
      slug: `ghost-cap-${n}`,
      html,
      status: 'published',
      published_at: when,
    });
    const ghostFile = join(t.dataDir, 'ghost-oversized.json');
    writeFileSync(
      ghostFile,
      JSON.stringify({ db: [{ data: { posts: [ghostPost(1, '<p>One.</p>'), ghostPost(2, huge), ghostPost(3, '<p>Three.</p>')] } }] }),
    );
    const ghost = await importAndWait('ghost', ghostFile);
    expect(ghost.state).toBe('DONE');
    expect(ghost.skipped.filter((row: { kind: string }) => row.kind === 'post')).toEqual([
      { kind: 'post', sourceId: ghostPost(2, '').id, title: 'Ghost cap 2', reason: OVERSIZED_ITEM },
    ]);
    expect(ghost.counts).toMatchObject({ posts: 2 });
    expect(await post('ghost-cap-1')).toMatchObject({ title: 'Ghost cap 1' });
    expect(await post('ghost-cap-3')).toMatchObject({ title: 'Ghost cap 3' });
    expect(await post('ghost-cap-2')).toBeUndefined();

    const inkwellPost = (n: number, content: string) => ({
      id: 80 + n,
      title: `Inkwell cap ${n}`,
      slug: `inkwell-cap-${n}`,
      summary: null,
      content,
      status: 'PUBLISHED',
      authorId: 8,
      tagIds: [],
      thumbnail: null,
      isFeatured: false,
      seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
      createdAt: when,
      updatedAt: when,
      publishedAt: when,
      scheduledAt: null,
      earlierSlugs: [],
      oldPaths: [],
      markdownFile: `posts/inkwell-cap-${n}.md`,
      comments: [],
    });
    const inkwellFile = join(t.dataDir, 'inkwell-oversized.zip');
    const zip = new ZipArchive({ zlib: { level: 1 } });
    const out = createWriteStream(inkwellFile);
    zip.pipe(out);
    const users = [
      { id: 8, fullName: 'Cap Author', email: 'cap-author@third-inkwell.example.net', bio: null, roles: ['AUTHOR'], createdAt: when },
    ];
    const site = {
      format: 'inkwell-site-export',
      version: 1,
      exportedAt: when,
      site: 'https://third-inkwell.example.net',
      users,
      tags: [],
      posts: [inkwellPost(1, 'One.'), inkwellPost(2, huge), inkwellPost(3, 'Three.')],
    };
    zip.append(JSON.stringify(site), { name: 'site.json' });
    await zip.finalize();
    await finished(out);
    const inkwell = await importAndWait('inkwell', inkwellFile);
    expect(inkwell.state).toBe('DONE');
    expect(inkwell.skipped.filter((row: { kind: string }) => row.kind === 'post')).toEqual([
      { kind: 'post', sourceId: '82', title: 'Inkwell cap 2', reason: OVERSIZED_ITEM },
    ]);
    expect(await post('inkwell-cap-1')).toMatchObject({ title: 'Inkwell cap 1' });
    expect(await post('inkwell-cap-3')).toMatchObject({ title: 'Inkwell cap 3' });
    expect(await post('inkwell-cap-2')).toBeUndefined();
  });

  it('never grants ADMIN from an Inkwell export: the account is a pending author, and the report names the role it dropped', async () => {
    const file = join(t.dataDir, 'other-inkwell.zip');
    const zip = new ZipArchive({ zlib: { level: 1 } });
    const out = createWriteStream(file);
    zip.pipe(out);
    const when = '2020-05-01T10:00:00.000Z';
    zip.append(
      JSON.stringify({
        format: 'inkwell-site-export',
        version: 1,
        exportedAt: when,
        site: 'https://another-inkwell.example.net',
        users: [
          {
            id: 7,
            fullName: 'Would-be Admin',
            email: 'would-be-admin@another-inkwell.example.net',
            bio: null,
            roles: ['ADMIN', 'AUTHOR'],
            createdAt: when,
          },
        ],
        tags: [],
        posts: [
          {
            id: 70,
            title: 'From another Inkwell',
            slug: 'from-another-inkwell',
            summary: null,
            content: 'Hello.',
            status: 'PUBLISHED',
            authorId: 7,
            tagIds: [],
            thumbnail: null,
            isFeatured: false,
            seo: { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
            createdAt: when,
            updatedAt: when,
            publishedAt: when,
            scheduledAt: null,
            earlierSlugs: [],
            oldPaths: [],
            markdownFile: 'posts/from-another-inkwell.md',
            comments: [],
          },
        ],
      }),
      { name: 'site.json' },
    );
    await zip.finalize();
    await finished(out);
    const done = await importAndWait('inkwell', file);
    expect(done.state).toBe('DONE');
    const roles = (await db.query(
      `SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id JOIN users u ON u.id = ur.user_id WHERE u.email = $1 ORDER BY r.name`,
      ['would-be-admin@another-inkwell.example.net'],
    )) as { name: string }[];
    expect(roles.map((row) => row.name)).toEqual(['AUTHOR']);
    const [account] = (await db.query(`SELECT status, is_verified FROM users WHERE email = $1`, [
      'would-be-admin@another-inkwell.example.net',
    ])) as { status: string; is_verified: boolean }[];
    expect(account).toEqual({ status: 'PENDING', is_verified: false });
    expect(done.renamed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'user',
          sourceId: '7',
          from: 'ADMIN, AUTHOR',
          to: 'AUTHOR',
          reason: expect.stringContaining('never grants ADMIN'),
        }),
      ]),
    );
  });
});
