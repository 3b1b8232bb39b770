import { DataSource } from 'typeorm';
import { AddUserSlugs1795700000000 } from '../../migrations/1795700000000-AddUserSlugs';
import { slugify } from '../../isomorphic/slug';
import { createDataSource } from '../src/database/data-source';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, ok, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { startMailCatcher, MailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, createReader, createUser, TestUser } from './helpers/users';
import { sitemapEntries } from './helpers/sitemap';
import { RoleName } from '../src/users/roles';

/** The slug the database gave a user. */
async function slugOf(db: DataSource, id: number): Promise<string> {
  const [row] = (await db.query(`SELECT slug FROM users WHERE id = $1`, [id])) as { slug: string }[];
  return row.slug;
}

describe('User slugs (users.slug, migration AddUserSlugs)', () => {
  let t: TestApp;
  let mail: MailCatcher;
  let db: DataSource;
  let admin: TestUser;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.url } });
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  it('derives the slug from the full name like post slugs: đ→d, diacritics dropped, lower-case, hyphens', async () => {
    const token = uid();
    const user = await createAuthor(t, { fullName: `Đặng Thị  Ngọc_Ánh — ${token}` });
    expect(await slugOf(db, user.id)).toBe(`dang-thi-ngoc-anh-${token}`);
    expect(await slugOf(db, user.id)).toBe(slugify(user.fullName));
  });

  it('uses the NFKD form (compatibility letters become plain ones) and "user" when nothing is left', async () => {
    const token = uid();
    const wide = await createAuthor(t, { fullName: `Ｊｏｈｎ ﬁsher ${token}` });
    expect(await slugOf(db, wide.id)).toBe(`john-fisher-${token}`);
    const other = await createAuthor(t, { fullName: '李小龍' });
    expect(await slugOf(db, other.id)).toMatch(/^user(-\d+)?$/);
  });

  it('gives a name taken before -2, -3… (one past the highest suffix)', async () => {
    const name = `Same Name ${uid()}`;
    const first = await createAuthor(t, { fullName: name });
    const second = await createAuthor(t, { fullName: name.toUpperCase() });
    const third = await createAuthor(t, { fullName: `  ${name}  ` });
    const base = slugify(name);
    expect([await slugOf(db, first.id), await slugOf(db, second.id), await slugOf(db, third.id)]).toEqual([base, `${base}-2`, `${base}-3`]);
  });

  it('gives concurrent sign-ups with one name distinct slugs', async () => {
    const name = `Race Name ${uid()}`;
    const users = await Promise.all(Array.from({ length: 5 }, () => createAuthor(t, { fullName: name })));
    const slugs = await Promise.all(users.map((user) => slugOf(db, user.id)));
    const base = slugify(name);
    expect([...slugs].sort()).toEqual([base, `${base}-2`, `${base}-3`, `${base}-4`, `${base}-5`].sort());
  });

  it('keeps the slug when the name changes', async () => {
    const user = await createAuthor(t, { fullName: `Before Rename ${uid()}` });
    const before = await slugOf(db, user.id);
    await t.http
      .put(api('/users/profile'))
      .set(user.auth)
      .send({ fullName: `After Rename ${uid()}` })
      .expect(200);
    expect(await slugOf(db, user.id)).toBe(before);
  });

  it('is set on sign-up and on an admin-created account', async () => {
    const token = uid();
    const registered = await t.http
      .post(api('/auth/register'))
      .send({
        fullName: `Signed Up ${token}`,
        email: `signed.${token}@example.test`,
        password: 'Str0ng!Pass',
        confirmPassword: 'Str0ng!Pass',
      })
      .expect(201);
    expect(await slugOf(db, registered.body.data.id)).toBe(`signed-up-${token}`);
    const created = await t.http
      .post(api('/admin/users'))
      .set(admin.auth)
      .send({
        fullName: `Made By Admin ${token}`,
        email: `made.${token}@example.test`,
        password: 'secret1',
        confirmPassword: 'secret1',
        roles: ['AUTHOR'],
        status: 'ACTIVE',
      })
      .expect(201);
    expect(await slugOf(db, created.body.data.id)).toBe(`made-by-admin-${token}`);
  });
});

describe('AddUserSlugs backfill', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createDataSource(await createFreshDatabase('inkwell_migration_user_slugs'));
    await dataSource.initialize();
  });
  afterAll(async () => {
    await dataSource?.destroy();
  });

  async function run(direction: 'up' | 'down'): Promise<void> {
    const runner = dataSource.createQueryRunner();
    try {
      await new AddUserSlugs1795700000000()[direction](runner);
    } finally {
      await runner.release();
    }
  }

  it('slugs a bulk insert of thousands of distinct names in one statement (one advisory lock, not one per name)', async () => {
    const rows = (await dataSource.query(
      `INSERT INTO users (full_name, email, password_hash)
       SELECT 'Bulk Name ' || i || ' ' || (i % 7), 'bulk-' || i || '@example.test', 'x' FROM generate_series(1, 8000) AS i
       RETURNING slug`,
    )) as { slug: string }[];
    expect(new Set(rows.map((row) => row.slug)).size).toBe(8000);
    expect(rows[0].slug).toBe('bulk-name-1-1');
  });

  it('gives existing users slugs in id order (the oldest keeps the bare one); down drops them', async () => {
    await run('down');
    const names = ['Nguyễn Văn Đức', 'Nguyen Van Duc', 'Ada Lovelace', 'nguyễn văn đức'];
    const ids: number[] = [];
    for (const [i, name] of names.entries()) {
      const [row] = (await dataSource.query(`INSERT INTO users (full_name, email, password_hash) VALUES ($1, $2, 'x') RETURNING id`, [
        name,
        `backfill-${i}@example.test`,
      ])) as { id: number }[];
      ids.push(row.id);
    }
    await run('up');
    const rows = (await dataSource.query(`SELECT id, slug FROM users WHERE id = ANY($1::int[]) ORDER BY id`, [ids])) as {
      id: number;
      slug: string;
    }[];
    expect(rows.map((row) => row.slug)).toEqual(['nguyen-van-duc', 'nguyen-van-duc-2', 'ada-lovelace', 'nguyen-van-duc-3']);
  });
});

describe('Author pages API (GET /blog/authors/{slug}, /blog/authors/{slug}/posts)', () => {
  let t: TestApp;
  let admin: TestUser;
  let tagSlug: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await createAdmin(t);
    tagSlug = `author-tag-${uid()}`;
    await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Tag ${tagSlug}`, slug: tagSlug })
      .expect(201);
  });
  afterAll(() => t?.close());

  /** A post by `author`, written as a draft, submitted and approved by the admin (published). */
  async function published(
    author: TestUser,
    title = `Post ${uid()}`,
  ): Promise<{ id: number; slug: string; title: string; publishedAt: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title, content: `Body of ${token}`, slug: `author-post-${token}`, tagSlugs: [tagSlug] })
      .expect(201);
    await t.http
      .post(api(`/blog/posts/author/${res.body.data.id}/submit-for-review`))
      .set(author.auth)
      .expect(200);
    const approved = await t.http
      .put(api(`/blog/posts/admin/${res.body.data.id}/review`))
      .set(admin.auth)
      .send({ status: 'APPROVED' })
      .expect(200);
    return approved.body.data.post;
  }

  it('answers the profile of an active author with published posts: totals, joinedAt, the same slug as the authors list', async () => {
    const author = await createAuthor(t, { fullName: `Trần Văn Bình ${uid()}`, bio: 'Viết về kiểm thử.' });
    await published(author);
    await published(author);
    const res = await t.http.get(api(`/blog/authors/${author.slug}`)).expect(200);
    expect(res.body).toEqual(
      ok({
        id: author.id,
        slug: author.slug,
        fullName: author.fullName,
        avatar: null,
        bio: 'Viết về kiểm thử.',
        postCount: 2,
        totalLikes: 0,
        joinedAt: ISO,
      }),
    );
    expect(author.slug).toMatch(/^tran-van-binh-/);
    const list = await t.http.get(api('/blog/authors')).expect(200);
    expect(list.body.data.find((entry: { id: number }) => entry.id === author.id)).toMatchObject({ slug: author.slug, postCount: 2 });
  });

  it("pages the author's published posts newest first with the public card fields; drafts and other authors' posts never appear", async () => {
    const author = await createAuthor(t);
    const other = await createAuthor(t);
    const posts = [await published(author), await published(author), await published(author)];
    await published(other);
    await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: `Draft ${uid()}`, content: 'x', slug: `draft-${uid()}` })
      .expect(201);
    const first = await t.http.get(api(`/blog/authors/${author.slug}/posts?page=0&size=2`)).expect(200);
    expect(first.body.data).toMatchObject({
      totalElements: 3,
      totalPages: 2,
      number: 0,
      size: 2,
      numberOfElements: 2,
      first: true,
      last: false,
      empty: false,
    });
    expect(first.body.data.content.map((card: { id: number }) => card.id)).toEqual([posts[2].id, posts[1].id]);
    expect(first.body.data.content[0]).toEqual({
      id: posts[2].id,
      title: posts[2].title,
      slug: posts[2].slug,
      summary: null,
      thumbnail: null,
      likeCount: 0,
      viewCount: 0,
      commentCount: 0,
      isFeatured: false,
      publishedAt: ISO,
      readingTime: 1,
      authorId: author.id,
      authorName: author.fullName,
      authorAvatar: null,
      authorSlug: author.slug,
      tags: [expect.objectContaining({ slug: tagSlug })],
      canonicalUrl: null,
    });
    const second = await t.http.get(api(`/blog/authors/${author.slug}/posts?page=1&size=2`)).expect(200);
    expect(second.body.data).toMatchObject({ number: 1, last: true, numberOfElements: 1 });
    expect(second.body.data.content.map((card: { id: number }) => card.id)).toEqual([posts[0].id]);
    expect((await t.http.get(api(`/blog/authors/${author.slug}/posts`)).expect(200)).body.data.size).toBe(10);
  });

  it('404 for an unknown slug, a reader, an author without published posts, a banned author; 400 for bad paging', async () => {
    const reader = await createReader(t);
    const writerAndReader = await createUser(t, [RoleName.USER]);
    const idle = await createAuthor(t);
    const banned = await createAuthor(t);
    await published(banned);
    await t.http.get(api(`/blog/authors/${banned.slug}`)).expect(200);
    await t.http.get(api(`/blog/authors/${banned.slug}/posts`)).expect(200);
    await t.http
      .post(api(`/admin/users/${banned.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Spam' })
      .expect(200);
    for (const slug of [
      'no-such-author-anywhere',
      reader.slug,
      writerAndReader.slug,
      idle.slug,
      banned.slug,
      'Not_A_Slug',
      'x'.repeat(300),
    ]) {
      expect((await t.http.get(api(`/blog/authors/${encodeURIComponent(slug)}`)).expect(404)).body).toEqual(
        err(404, `Author "${slug}" not found`),
      );
      expect((await t.http.get(api(`/blog/authors/${encodeURIComponent(slug)}/posts`)).expect(404)).body).toEqual(
        err(404, `Author "${slug}" not found`),
      );
    }
    const author = await createAuthor(t);
    await published(author);
    expect((await t.http.get(api(`/blog/authors/${author.slug}/posts?page=-1`)).expect(400)).body.message).toBe(
      'page must not be negative',
    );
    await t.http.get(api(`/blog/authors/${author.slug}/posts?page=abc`)).expect(400);
    await t.http.get(api(`/blog/authors/${author.slug}/posts?unknown=1`)).expect(400);
  });

  it("an administrator's published posts have an author page too; the sitemap lists author pages, not banned or idle authors", async () => {
    const token = uid();
    const post = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Admin ${token}`, slug: `admin-${token}`, content: 'Body', status: 'PUBLISHED' })
      .expect(201);
    expect((await t.http.get(api(`/blog/authors/${admin.slug}`)).expect(200)).body.data).toMatchObject({ id: admin.id, slug: admin.slug });
    expect(post.body.data.author.slug).toBe(admin.slug);
    const listed = (await t.http.get(api('/blog/authors')).expect(200)).body.data.map((entry: { id: number }) => entry.id);
    expect(listed).not.toContain(admin.id);
    const author = await createAuthor(t);
    await published(author);
    const idle = await createAuthor(t);
    const banned = await createAuthor(t);
    await published(banned);
    await t.http
      .post(api(`/admin/users/${banned.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Spam' })
      .expect(200);
    const sitemap = await sitemapEntries(t, 'authors');
    expect(sitemap).toContainEqual({ slug: author.slug, updatedAt: ISO });
    expect(sitemap.map((entry) => entry.slug)).toEqual(expect.arrayContaining([admin.slug, author.slug]));
    expect(sitemap.map((entry) => entry.slug)).not.toContain(idle.slug);
    expect(sitemap.map((entry) => entry.slug)).not.toContain(banned.slug);
  });

  it('shows a bio edit, a new publication, an unpublished post and a like at once (held answers drop)', async () => {
    const author = await createAuthor(t, { bio: 'Old bio' });
    const reader = await createReader(t);
    const first = await published(author);
    expect((await t.http.get(api(`/blog/authors/${author.slug}`)).expect(200)).body.data).toMatchObject({
      bio: 'Old bio',
      postCount: 1,
      totalLikes: 0,
    });
    await t.http.get(api(`/blog/authors/${author.slug}/posts`)).expect(200);
    await t.http.put(api('/users/profile')).set(author.auth).send({ bio: 'New bio' }).expect(200);
    expect((await t.http.get(api(`/blog/authors/${author.slug}`)).expect(200)).body.data.bio).toBe('New bio');
    const second = await published(author);
    expect((await t.http.get(api(`/blog/authors/${author.slug}`)).expect(200)).body.data.postCount).toBe(2);
    expect(
      (await t.http.get(api(`/blog/authors/${author.slug}/posts`)).expect(200)).body.data.content.map((card: { id: number }) => card.id),
    ).toEqual([second.id, first.id]);
    await t.http
      .post(api(`/blog/posts/${first.id}/like`))
      .set(reader.auth)
      .expect(200);
    expect((await t.http.get(api(`/blog/authors/${author.slug}`)).expect(200)).body.data.totalLikes).toBe(1);
    expect((await t.http.get(api(`/blog/authors/${author.slug}/posts`)).expect(200)).body.data.content[1].likeCount).toBe(1);
    await t.http
      .delete(api(`/blog/posts/${second.id}`))
      .set(admin.auth)
      .expect(204);
    expect(
      (await t.http.get(api(`/blog/authors/${author.slug}/posts`)).expect(200)).body.data.content.map((card: { id: number }) => card.id),
    ).toEqual([first.id]);
  });

  it('the authors list (held: every /search render reads it) shows a publication, a like, a bio edit, a deletion and a ban at once', async () => {
    const entryOf = async (id: number) =>
      ((await t.http.get(api('/blog/authors')).expect(200)).body.data as { id: number }[]).find((entry) => entry.id === id);
    const author = await createAuthor(t, { bio: 'Old bio' });
    const reader = await createReader(t);
    expect(await entryOf(author.id)).toBeUndefined();
    const first = await published(author);
    expect(await entryOf(author.id)).toMatchObject({ postCount: 1, totalLikes: 0, bio: 'Old bio' });
    const second = await published(author);
    expect(await entryOf(author.id)).toMatchObject({ postCount: 2, latestPostAt: second.publishedAt });
    await t.http
      .post(api(`/blog/posts/${first.id}/like`))
      .set(reader.auth)
      .expect(200);
    expect(await entryOf(author.id)).toMatchObject({ totalLikes: 1 });
    await t.http.put(api('/users/profile')).set(author.auth).send({ bio: 'New bio' }).expect(200);
    expect(await entryOf(author.id)).toMatchObject({ bio: 'New bio' });
    await t.http
      .delete(api(`/blog/posts/${second.id}`))
      .set(admin.auth)
      .expect(204);
    expect(await entryOf(author.id)).toMatchObject({ postCount: 1, latestPostAt: first.publishedAt });
    await t.http
      .post(api(`/admin/users/${author.id}/ban`))
      .set(admin.auth)
      .send({ reason: 'Spam' })
      .expect(200);
    expect(await entryOf(author.id)).toBeUndefined();
  });
});
