import { ZipArchive } from 'archiver';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import sharp from 'sharp';
import { DataSource } from 'typeorm';
import { ACCOUNT_INVITATION_QUEUE } from '../src/imports/account-invitations';
import { RoleName } from '../src/users/roles';
import { JobsService } from '../src/jobs/jobs.service';
import { api, err } from './helpers/envelope';
import { createTestApp, TestApp } from './helpers/app';
import { createFreshDatabase } from './helpers/fresh-database';
import { MailCatcher, resetTokenOf, startMailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, createUser, TestUser } from './helpers/users';
import { FIXTURE_SITE, ghostFacts, ghostFixture, IMPORTED_COMMENTS_PER_THREAD, wxrFacts, wxrFixture } from './fixtures/import-fixtures';

/**
 * Site import and export on a database of the suite's own (an import writes site-wide
 * content and one runs at a time): a WordPress WXR and a Ghost export of 200+ posts each, through
 * the real upload, job and owners; a second run adds nothing; cancel; files that are not what they
 * say; the export and its round trip into an empty site.
 */
describe('Site import and export', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  const WXR = { posts: 216 };
  const GHOST_POSTS = 210;
  let wxrPath: string;
  let mediaPath: string;
  let ghostPath: string;
  let mail: MailCatcher;

  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      databaseUrl: await createFreshDatabase('inkwell_import'),
      env: { JOB_POLL_SECONDS: '1', SMTP_URL: mail.url },
    });
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
    wxrPath = join(t.dataDir, 'fixture.xml');
    writeFileSync(wxrPath, wxrFixture(WXR));
    ghostPath = join(t.dataDir, 'ghost.json');
    writeFileSync(ghostPath, ghostFixture({ posts: GHOST_POSTS }));
    // The media zip: each featured image at its wp-content/uploads path (2:1, as thumbnails want).
    mediaPath = join(t.dataDir, 'media.zip');
    const zip = new ZipArchive({ zlib: { level: 1 } });
    const out = createWriteStream(mediaPath);
    zip.pipe(out);
    const png = await sharp({ create: { width: 800, height: 400, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    for (let n = 10; n <= WXR.posts; n += 10) zip.append(png, { name: `wp-content/uploads/2016/05/anh-${n}.png` });
    await zip.finalize();
    await finished(out);
  }, 120_000);
  afterAll(async () => {
    await t.close();
    await mail.close();
  });

  const upload = (source: string, file: string, media?: string, user: TestUser = admin, query = '') => {
    const request = t.http
      .post(api(`/admin/imports?source=${source}${query}`))
      .set(user.auth)
      .attach('file', file);
    return media ? request.attach('media', media) : request;
  };

  /** Polls the import until it has ended. */
  async function finishedImport(id: number, timeoutMs = 90_000, { readingPublicPosts = false } = {}): Promise<Record<string, any>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      // A reader keeps the public list cached while the import writes.
      if (readingPublicPosts) await t.http.get(api('/blog/posts/public')).expect(200);
      const res = await t.http
        .get(api(`/admin/imports/${id}`))
        .set(admin.auth)
        .expect(200);
      if (!['QUEUED', 'RUNNING'].includes(res.body.data.state)) return res.body.data;
      if (Date.now() > until) throw new Error(`import ${id} still ${res.body.data.state}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const count = async (sql: string, params: unknown[] = []) => Number(((await db.query(sql, params)) as { n: string }[])[0].n);

  it('imports a WordPress export through the owners: statuses, dates, slugs, tags, threads, images, redirects', async () => {
    const facts = wxrFacts(WXR);
    // The public list, cached empty before the import and read all through it: the import's changes reach the caches in batches, all of them by its end.
    expect((await t.http.get(api('/blog/posts/public')).expect(200)).body.data.totalElements).toBe(0);
    const started = await upload('wordpress', wxrPath, mediaPath).expect(202);
    expect(started.body).toMatchObject({
      success: true,
      status: 202,
      message: 'Import started',
      data: { state: 'QUEUED', source: 'wordpress', fileName: 'fixture.xml' },
    });
    const done = await finishedImport(started.body.data.id, undefined, { readingPublicPosts: true });
    expect(done.state).toBe('DONE');
    expect((await t.http.get(api('/blog/posts/public')).expect(200)).body.data.totalElements).toBe(facts.byStatus.publish);
    const imported = WXR.posts - facts.byStatus.trash;
    expect(done.total).toBe(WXR.posts);
    expect(done.processed).toBe(WXR.posts);
    expect(done.counts).toMatchObject({
      users: expect.any(Number),
      tags: 5,
      posts: imported,
      comments: facts.importableComments,
      images: facts.featured,
    });
    // Trashed posts are skipped with their reason; the spam-free comment without e-mail too.
    expect(done.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'post', sourceId: '111', reason: "Its status 'trash' has no equivalent here." }),
      ]),
    );
    expect(done.skipped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'comment',
          reason: 'The comment names no e-mail address, so it cannot belong to an account here.',
        }),
      ]),
    );
    // Post 3 wanted post 2's slug: renamed and reported; long comments are shortened and reported.
    expect(done.renamed).toEqual(
      expect.arrayContaining([
        { kind: 'post', sourceId: '103', from: 'bai-viet-2', to: 'bai-viet-2-2', reason: 'Slug already taken or not valid here' },
      ]),
    );
    expect(done.renamed.some((row: { kind: string }) => row.kind === 'comment')).toBe(true);

    // Statuses mapped, as the spec's statuses.
    const statuses = (await db.query(`SELECT status, count(*)::int AS n FROM posts GROUP BY status`)) as { status: string; n: number }[];
    const byStatus = Object.fromEntries(statuses.map((row) => [row.status, row.n]));
    expect(byStatus).toEqual({
      PUBLISHED: facts.byStatus.publish,
      DRAFT: facts.byStatus.draft,
      PENDING_REVIEW: facts.byStatus.pending,
      PRIVATE: facts.byStatus.private,
    });

    // Original dates and slug, author, tags and Markdown of one post.
    const [post] = (await db.query(
      `SELECT p.id, p.slug, p.title, p.status, p.content, p.published_at, p.created_at, u.email, u.is_verified, u.status AS user_status, u.password_hash,
              array(SELECT t.name FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id ORDER BY t.name) AS tags
         FROM posts p JOIN users u ON u.id = p.author_id WHERE p.slug = 'bai-viet-6'`,
    )) as Record<string, any>[];
    expect(post).toMatchObject({
      title: 'Plain title #6',
      status: 'PUBLISHED',
      email: 'linh.nguyen@old-blog.example.com',
      is_verified: false,
      user_status: 'PENDING',
      password_hash: '!',
    });
    expect(post.published_at.getUTCFullYear()).toBeLessThan(2022);
    expect(post.created_at.toISOString()).toBe(post.published_at.toISOString());
    expect(post.tags.sort()).toEqual(['Tin tức', 'عربي'].sort());
    expect(post.content).toContain('Đây là bài viết số 6. It has **bold**, *italic* & an entity ’quoted’.');
    expect(post.content).toContain('*Chú thích ảnh 6*');
    // The author is an AUTHOR with no password, created by the import (audit: via import).
    const roles = (await db.query(
      `SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id JOIN users u ON u.id = ur.user_id WHERE u.email = $1`,
      ['linh.nguyen@old-blog.example.com'],
    )) as { name: string }[];
    expect(roles.map((row) => row.name)).toEqual([RoleName.AUTHOR]);
    // Shortcodes and embedded HTML, the CDATA end.
    const [seven] = (await db.query(`SELECT content, content_html FROM posts WHERE slug = 'bai-viet-7'`)) as {
      content: string;
      content_html: string;
    }[];
    expect(seven.content).toContain('A CDATA end inside the text: \\]\\]> and after it.');
    const [sixty] = (await db.query(`SELECT content, content_html FROM posts WHERE slug = 'bai-viet-60'`)) as {
      content: string;
      content_html: string;
    }[];
    expect(sixty.content).toContain('[Embedded content](https://www.youtube.com/embed/abc123)');
    expect(sixty.content).not.toContain('alert(');
    expect(sixty.content).toContain('\\[gallery ids="1,2,3"\\]');

    // Threads: a parent before its replies, no level past 3, deeper replies beside the level-3 one.
    const thread = (await db.query(
      `SELECT c.content, c.level, c.parent_id, c.moderation, c.created_at, parent.content AS parent_content FROM comments c JOIN posts p ON p.id = c.post_id
         LEFT JOIN comments parent ON parent.id = c.parent_id WHERE p.slug = 'bai-viet-6' ORDER BY c.created_at`,
    )) as Record<string, any>[];
    expect(thread).toHaveLength(IMPORTED_COMMENTS_PER_THREAD);
    const byText = (text: string) => thread.find((row) => row.content.startsWith(text))!;
    expect(byText('Bình luận gốc')).toMatchObject({ level: 0, parent_id: null, moderation: 'VISIBLE' });
    expect(byText('Trả lời cấp 1')).toMatchObject({ level: 1, parent_content: 'Bình luận gốc 👍' });
    expect(byText('Cấp 3')).toMatchObject({ level: 3, parent_content: 'Cấp 2' });
    expect(byText('Cấp 4')).toMatchObject({ level: 3, parent_content: 'Cấp 2' });
    expect(byText('Cấp 5')).toMatchObject({ level: 3, parent_content: 'Cấp 2' });
    expect(byText('Waiting for approval')).toMatchObject({ moderation: 'HELD' });
    expect(byText('Một bình luận dài').content).toHaveLength(200);
    expect(byText('Bình luận gốc').created_at.getUTCFullYear()).toBeLessThan(2022);
    // The post's counter counts its visible comments, as the comment owner keeps it.
    expect(await count(`SELECT comment_count AS n FROM posts WHERE slug = 'bai-viet-6'`)).toBe(IMPORTED_COMMENTS_PER_THREAD - 1);

    // Featured images went through the images owner (a stored thumbnail).
    const [withImage] = (await db.query(`SELECT thumbnail FROM posts WHERE slug = 'bai-viet-10'`)) as { thumbnail: string }[];
    expect(withImage.thumbnail).toMatch(/^\/images\/thumbnails\/[0-9a-f]{32}-800x400\.webp$/);

    // The old addresses answer where the post is now.
    const [{ published_at: at }] = (await db.query(`SELECT published_at FROM posts WHERE slug = 'bai-viet-2-2'`)) as {
      published_at: Date;
    }[];
    const local = new Date(at.getTime() + 7 * 3_600_000);
    const ymd = `${local.getUTCFullYear()}/${String(local.getUTCMonth() + 1).padStart(2, '0')}`;
    const day = String(local.getUTCDate()).padStart(2, '0');
    const moved = await t.http
      .get(api(`/blog/posts/public/moved-path`))
      .query({ path: `/${ymd}/${day}/bai-viet-2/` })
      .expect(200);
    expect(moved.body.data).toEqual({ slug: 'bai-viet-2-2' });
    const shorter = await t.http
      .get(api(`/blog/posts/public/moved-path`))
      .query({ path: `/${ymd}/bai-viet-2` })
      .expect(200);
    expect(shorter.body.data).toEqual({ slug: 'bai-viet-2-2' });
    await t.http.get(api(`/blog/posts/public/moved-path`)).query({ path: '/2099/01/nothing/' }).expect(404);
    await t.http.get(api(`/blog/posts/public/moved-path`)).query({ path: 'no-slash' }).expect(400);

    // Historic events were recorded (caches, audit) but nobody was notified.
    expect(await count(`SELECT count(*) AS n FROM domain_events WHERE name = 'post.created' AND data->>'title' = 'Plain title #6'`)).toBe(
      1,
    );
    expect(await count(`SELECT count(*) AS n FROM notifications`)).toBe(0);
    // The uploads are gone once the import has ended.
    expect(await count(`SELECT count(*) AS n FROM site_imports WHERE file_path IS NOT NULL OR media_path IS NOT NULL`)).toBe(0);
  }, 120_000);

  it('adds nothing when the same file is imported again', async () => {
    const before = await count(
      `SELECT (SELECT count(*) FROM posts) + (SELECT count(*) FROM comments) + (SELECT count(*) FROM users) + (SELECT count(*) FROM tags) AS n`,
    );
    const again = await finishedImport((await upload('wordpress', wxrPath).expect(202)).body.data.id);
    expect(again.state).toBe('DONE');
    expect(again.counts).toEqual({ users: 0, tags: 0, posts: 0, comments: 0, images: 0, redirects: 0, invitations: 0 });
    expect(again.skipped).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'post', sourceId: '106', reason: 'Already imported by an earlier run.' })]),
    );
    expect(
      await count(
        `SELECT (SELECT count(*) FROM posts) + (SELECT count(*) FROM comments) + (SELECT count(*) FROM users) + (SELECT count(*) FROM tags) AS n`,
      ),
    ).toBe(before);
  }, 120_000);

  it('imports a Ghost export: html, Lexical and Mobiledoc bodies, tags but not internal ones, authors, dates, slugs', async () => {
    const facts = ghostFacts(GHOST_POSTS);
    const done = await finishedImport((await upload('ghost', ghostPath).expect(202)).body.data.id);
    expect(done.state).toBe('DONE');
    expect(done.counts).toMatchObject({ users: 2, posts: GHOST_POSTS - facts.sent });
    expect(done.skipped).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'post', reason: "Its status 'sent' has no equivalent here." })]),
    );
    const [one] = (await db.query(
      `SELECT p.content, p.status, p.published_at, p.summary, u.email, array(SELECT t.slug FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id) AS tags
         FROM posts p JOIN users u ON u.id = p.author_id WHERE p.slug = 'ghost-post-4'`,
    )) as Record<string, any>[];
    // Post 4: its first author and its public tag (the internal one is left out).
    expect(one).toMatchObject({ status: 'PUBLISHED', email: 'hung@ghost.example.com', tags: ['getting-started'] });
    expect(one.content).toContain('Ghost bài 4 & **đậm** 🎈');
    expect(one.content).toContain('*Chú thích 4*');
    expect(one.content).toContain('```python\nprint("hi")\n```');
    expect(await count(`SELECT count(*) AS n FROM tags WHERE name = '#internal'`)).toBe(0);
    const [lexical] = (await db.query(`SELECT content FROM posts WHERE slug = 'ghost-post-9'`)) as { content: string }[];
    expect(lexical.content).toBe('## Lexical 9\n\nĐoạn văn từ Lexical.');
    const [mobiledoc] = (await db.query(`SELECT content FROM posts WHERE slug = 'ghost-post-10'`)) as { content: string }[];
    expect(mobiledoc.content).toBe('## Mobiledoc 10\n\nMarkdown card *text*.');
    // A scheduled Ghost post waits for its time as an approved one here; the slug taken by post 1 is renamed.
    expect(
      await count(
        `SELECT count(*) AS n FROM posts WHERE slug LIKE 'ghost-post-%' AND status = 'PENDING_REVIEW' AND scheduled_at IS NOT NULL`,
      ),
    ).toBe(facts.scheduled);
    expect(done.renamed).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: 'post', from: 'ghost-post-1', to: 'ghost-post-1-2' })]),
    );
  }, 120_000);

  it('refuses files that are not what they say, with nothing written', async () => {
    const before = await count(`SELECT count(*) AS n FROM posts`);
    const notXml = join(t.dataDir, 'not.xml');
    writeFileSync(notXml, 'hello, this is text');
    const refused = await upload('wordpress', notXml).expect(400);
    expect(refused.body).toEqual(
      err(400, 'This is not a WordPress export: choose the .xml file WordPress makes in Tools → Export.', {
        file: ['This is not a WordPress export: choose the .xml file WordPress makes in Tools → Export.'],
      }),
    );
    await upload('ghost', notXml).expect(400);
    await upload('inkwell', notXml).expect(400);
    const noFile = await t.http.post(api('/admin/imports?source=wordpress')).set(admin.auth).field('x', '1').expect(400);
    expect(noFile.body.message).toBe(
      'The upload could not be read. Send the export file as the "file" field (and a media zip as "media").',
    );
    const badSource = await t.http.post(api('/admin/imports?source=blogger')).set(admin.auth).attach('file', wxrPath).expect(400);
    expect(badSource.body.message).toBe('source must be one of wordpress, ghost, inkwell');
    const badMedia = await upload('wordpress', wxrPath, notXml).expect(400);
    expect(badMedia.body.message).toBe('The media file must be a .zip archive.');

    // XML that starts well and breaks half-way: the job's first pass reads it all and stops before writing.
    const broken = join(t.dataDir, 'broken.xml');
    writeFileSync(broken, wxrFixture({ posts: 30 }).replace('<title>Plain title #20</title>', '<title>Plain title #20</titl>'));
    const failed = await finishedImport((await upload('wordpress', broken).expect(202)).body.data.id);
    expect(failed.state).toBe('FAILED');
    expect(failed.error).toMatch(/^The file is not well-formed XML \(line \d+\)/);
    const notWxr = join(t.dataDir, 'feed.xml');
    writeFileSync(
      notWxr,
      '<?xml version="1.0"?><rss version="2.0"><channel><title>A feed</title><item><title>x</title></item></channel></rss>',
    );
    const feed = await finishedImport((await upload('wordpress', notWxr).expect(202)).body.data.id);
    expect(feed).toMatchObject({
      state: 'FAILED',
      error: 'This is not a WordPress export: it has no <wp:wxr_version> (export it from Tools → Export in WordPress).',
    });
    const ghostless = join(t.dataDir, 'other.json');
    writeFileSync(ghostless, JSON.stringify({ db: [{ data: {} }] }));
    expect(await finishedImport((await upload('ghost', ghostless).expect(202)).body.data.id)).toMatchObject({
      state: 'FAILED',
      error: expect.stringContaining('no db[0].data.posts'),
    });
    expect(await count(`SELECT count(*) AS n FROM posts`)).toBe(before);
  }, 120_000);

  it('is for admins only', async () => {
    const author = await createAuthor(t);
    const reader = await createUser(t);
    const small = join(t.dataDir, 'small.xml');
    writeFileSync(small, wxrFixture({ posts: 1 }));
    // The server refuses before reading the upload: on a busy machine its answer can come before the
    // body is written, and the client's write fails (EPIPE). The answer is what is tested: ask again.
    let refused: { body: unknown } | undefined;
    for (let attempt = 0; !refused; attempt++) {
      refused = await upload('wordpress', small, undefined, author)
        .expect(403)
        .catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EPIPE' || attempt === 4) throw error;
          return undefined;
        });
    }
    expect(refused.body).toEqual(err(403, 'You do not have permission to import or export the site.'));
    await t.http.get(api('/admin/imports')).set(reader.auth).expect(403);
    expect((await t.http.get(api('/admin/imports')).expect(401)).body).toEqual(
      err(401, 'Authentication required. Please log in to import or export the site.'),
    );
    await t.http.get(api('/admin/imports/999999')).set(admin.auth).expect(404);
    await t.http.get(api('/admin/imports/abc')).set(admin.auth).expect(400);
  });

  it('cancels: what was written stays, and running the file again finishes it without duplicates', async () => {
    const big = join(t.dataDir, 'cancel.xml');
    const options = { posts: 60, seed: 99, commentEvery: 0 };
    // Another site (its own address), so none of its posts were imported before.
    writeFileSync(
      big,
      wxrFixture(options)
        .replace(new RegExp(FIXTURE_SITE, 'g'), 'http://second-site.example.com')
        .replace(/bai-viet-/g, 'second-'),
    );
    const started = (await upload('wordpress', big).expect(202)).body.data;
    // Cancelled while it runs (after its first progress report), not while it waits in the queue.
    for (let until = Date.now() + 30_000; ;) {
      const now = (
        await t.http
          .get(api(`/admin/imports/${started.id}`))
          .set(admin.auth)
          .expect(200)
      ).body.data;
      if (now.processed > 0 || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const cancelled = await t.http
      .post(api(`/admin/imports/${started.id}/cancel`))
      .set(admin.auth)
      .expect(200);
    expect(cancelled.body.message).toBe('Import cancelled');
    const stopped = await finishedImport(started.id);
    expect(stopped.state).toBe('CANCELLED');
    expect(stopped.counts.posts).toBeGreaterThan(0);
    expect(stopped.processed).toBeLessThan(options.posts);
    await t.http
      .post(api(`/admin/imports/${started.id}/cancel`))
      .set(admin.auth)
      .expect(409);
    const rest = await finishedImport((await upload('wordpress', big).expect(202)).body.data.id);
    expect(rest.state).toBe('DONE');
    const facts = wxrFacts(options);
    expect(stopped.counts.posts + rest.counts.posts).toBe(options.posts - facts.byStatus.trash);
    expect(
      await count(`SELECT count(*) AS n FROM import_items WHERE origin = 'wordpress:http://second-site.example.com' AND kind = 'post'`),
    ).toBe(options.posts - facts.byStatus.trash);
  }, 120_000);
  it('invites the author accounts it creates, only when asked: one e-mail each, none on a re-run; the link sets a password, verifies and signs in', async () => {
    // Tiny sites of their own (3 posts, 3 authors, one comment thread), so every account is new to this site.
    const tinySite = (name: string, replace: (xml: string) => string = (xml) => xml) => {
      const path = join(t.dataDir, `${name}.xml`);
      const xml = wxrFixture({ posts: 3 })
        .replace(new RegExp(FIXTURE_SITE, 'g'), `http://${name}.example.com`)
        .replace(/@old-blog\.example\.com/g, `@${name}.example.com`)
        .replace(/@readers\.example\.com/g, `@readers-of-${name}.example.com`)
        .replace(/bai-viet-/g, `${name}-`);
      writeFileSync(path, replace(xml));
      return path;
    };
    const invitationsTo = (address: string) =>
      mail.to(address).filter((message) => message.subject === 'Your posts are on Inkwell: choose a password');
    const login = (email: string, password: string) => t.http.post(api('/auth/login')).send({ email, password });
    const account = async (email: string) =>
      (
        (await db.query(`SELECT status, is_verified, password_hash FROM users WHERE email = $1`, [email])) as {
          status: string;
          is_verified: boolean;
          password_hash: string;
        }[]
      )[0];

    // Not asked: the authors are created, nobody is e-mailed.
    const quiet = await finishedImport((await upload('wordpress', tinySite('quiet')).expect(202)).body.data.id);
    expect(quiet).toMatchObject({ state: 'DONE', inviteAuthors: false, counts: { users: expect.any(Number), invitations: 0 } });
    expect(quiet.counts.users).toBeGreaterThan(3);

    // Asked: sam's address already has an account here (no invitation); linh and omar are new.
    const existing = await createAuthor(t);
    const invitedSite = tinySite('invited', (xml) => xml.replace(/sam@invited\.example\.com/g, existing.email));
    await upload('wordpress', invitedSite, undefined, admin, '&inviteAuthors=maybe').expect(400);
    const started = await upload('wordpress', invitedSite, undefined, admin, '&inviteAuthors=true').expect(202);
    expect(started.body.data).toMatchObject({ inviteAuthors: true });
    const invited = await finishedImport(started.body.data.id);
    expect(invited).toMatchObject({ state: 'DONE', counts: { invitations: 2 } });
    const linh = 'linh.nguyen@invited.example.com';
    const omar = 'omar@invited.example.com';
    const [toLinh] = await Promise.all([mail.waitFor(linh), mail.waitFor(omar)]);
    const jobs = t.app.get(JobsService);
    for (const until = Date.now() + 10_000; (await jobs.pending(ACCOUNT_INVITATION_QUEUE)) > 0 && Date.now() < until;)
      await new Promise((resolve) => setTimeout(resolve, 100));

    // The same file again, asked again: nothing is created, nobody is invited twice.
    const rerun = await finishedImport(
      (await upload('wordpress', invitedSite, undefined, admin, '&inviteAuthors=true').expect(202)).body.data.id,
    );
    expect(rerun.counts).toMatchObject({ users: 0, invitations: 0 });
    expect(await jobs.pending(ACCOUNT_INVITATION_QUEUE)).toBe(0);
    expect(invitationsTo(linh)).toHaveLength(1);
    expect(invitationsTo(omar)).toHaveLength(1);
    expect(mail.to(existing.email)).toHaveLength(0);
    expect(
      mail.messages.filter((message) => message.to.some((to) => to.includes('readers-of-') || to.endsWith('@quiet.example.com'))),
    ).toHaveLength(0);

    // The invitation's link is a password reset link that lives 7 days.
    expect(toLinh.text).toContain(admin.fullName);
    const { link, token } = resetTokenOf(toLinh);
    expect(link.startsWith('http://localhost:3000/reset-password?token=')).toBe(true);
    const [{ expires_at: expiresAt }] = (await db.query(
      `SELECT r.expires_at FROM password_reset_tokens r JOIN users u ON u.id = r.user_id WHERE u.email = $1 AND r.used_at IS NULL`,
      [linh],
    )) as { expires_at: Date }[];
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3_600_000);
    expect(await account(linh)).toEqual({ status: 'PENDING', is_verified: false, password_hash: '!' });
    await login(linh, 'Ch0sen!Pass').expect(401);

    // Setting the password verifies the address and opens the account; signing in works.
    expect((await t.http.get(api('/auth/validate-reset-token')).query({ token }).expect(200)).body.data).toEqual({ valid: true });
    await t.http.post(api('/auth/reset-password')).send({ token, newPassword: 'Ch0sen!Pass', confirmPassword: 'Ch0sen!Pass' }).expect(200);
    expect(await account(linh)).toMatchObject({ status: 'ACTIVE', is_verified: true });
    const signedIn = await login(linh, 'Ch0sen!Pass').expect(200);
    expect(signedIn.body.data.user).toMatchObject({ email: linh, role: RoleName.AUTHOR, isVerified: true });
    expect(await count(`SELECT count(*) AS n FROM domain_events WHERE name = 'user.verified' AND (data->>'email') = $1`, [linh])).toBe(1);

    // An imported author nobody invited claims the account with 'Forgot password' the same way.
    const quietAuthor = 'omar@quiet.example.com';
    const since = mail.messages.length;
    await t.http.post(api('/auth/forgot-password')).send({ email: quietAuthor }).expect(200);
    const reset = resetTokenOf(await mail.waitFor(quietAuthor, { since }));
    await t.http
      .post(api('/auth/reset-password'))
      .send({ token: reset.token, newPassword: 'An0ther!Pass', confirmPassword: 'An0ther!Pass' })
      .expect(200);
    expect(await account(quietAuthor)).toMatchObject({ status: 'ACTIVE', is_verified: true });
    await login(quietAuthor, 'An0ther!Pass').expect(200);
  }, 60_000);
});

/**
 * The round trip: a site with imported posts, comments, tags, images and
 * redirects, plus a post renamed in the editor (its old slug redirects), is exported and imported
 * into an empty Inkwell; everything the format carries comes back the same.
 */
describe('Site export round trip', () => {
  let source: TestApp;
  let target: TestApp;

  beforeAll(async () => {
    source = await createTestApp({ databaseUrl: await createFreshDatabase('inkwell_export_from'), env: { JOB_POLL_SECONDS: '1' } });
  }, 120_000);
  afterAll(() => Promise.all([source?.close(), target?.close()]));

  async function importAndWait(
    app: TestApp,
    admin: TestUser,
    sourceName: string,
    file: string,
    media?: string,
  ): Promise<Record<string, any>> {
    const request = app.http
      .post(api(`/admin/imports?source=${sourceName}`))
      .set(admin.auth)
      .attach('file', file);
    const started = await (media ? request.attach('media', media) : request).expect(202);
    for (const until = Date.now() + 90_000; ;) {
      const res = await app.http
        .get(api(`/admin/imports/${started.body.data.id}`))
        .set(admin.auth)
        .expect(200);
      if (!['QUEUED', 'RUNNING'].includes(res.body.data.state)) return res.body.data;
      if (Date.now() > until) throw new Error('import did not end');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Everything the export carries, keyed by stable names (ids differ between the two sites). */
  async function snapshot(app: TestApp): Promise<Record<string, unknown>> {
    const db = app.app.get(DataSource);
    const posts = await db.query(
      `SELECT p.slug, p.title, p.summary, p.content, p.content_html, p.status, p.is_featured, p.created_at, p.published_at, p.scheduled_at, p.meta_description, p.comment_count,
              p.thumbnail IS NOT NULL AS has_thumbnail, u.email AS author,
              array(SELECT t.slug FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id ORDER BY t.slug) AS tags,
              array(SELECT h.slug FROM post_slug_history h WHERE h.post_id = p.id ORDER BY h.slug) AS earlier_slugs,
              array(SELECT r.path FROM post_path_redirects r WHERE r.post_id = p.id ORDER BY r.path) AS old_paths
         FROM posts p JOIN users u ON u.id = p.author_id ORDER BY p.slug`,
    );
    const comments = await db.query(
      `SELECT p.slug, c.content, c.level, c.moderation, c.created_at, c.reply_count, u.email, parent.content AS parent
         FROM comments c JOIN posts p ON p.id = c.post_id JOIN users u ON u.id = c.user_id LEFT JOIN comments parent ON parent.id = c.parent_id
        ORDER BY p.slug, c.created_at, c.content`,
    );
    const tags = await db.query(`SELECT name, slug, description, is_active FROM tags ORDER BY slug`);
    const users = await db.query(
      `SELECT u.email, u.full_name, array(SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id ORDER BY r.name) AS roles
         FROM users u WHERE EXISTS (SELECT 1 FROM posts p WHERE p.author_id = u.id) OR EXISTS (SELECT 1 FROM comments c WHERE c.user_id = u.id) ORDER BY u.email`,
    );
    return { posts, comments, tags, users };
  }

  it('exports the whole site as a zip and imports it into an empty Inkwell with nothing lost', async () => {
    const sourceAdmin = await createAdmin(source);
    const dir = source.dataDir;
    const wxr = join(dir, 'site.xml');
    const options = { posts: 36, seed: 7 };
    writeFileSync(wxr, wxrFixture(options));
    const media = join(dir, 'media.zip');
    const zip = new ZipArchive({ zlib: { level: 1 } });
    const out = createWriteStream(media);
    zip.pipe(out);
    const png = await sharp({ create: { width: 900, height: 450, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();
    for (let n = 10; n <= options.posts; n += 10) zip.append(png, { name: `wp-content/uploads/2016/05/anh-${n}.png` });
    await zip.finalize();
    await finished(out);
    expect((await importAndWait(source, sourceAdmin, 'wordpress', wxr, media)).state).toBe('DONE');
    // A post renamed in the editor: its old slug is part of what must come back.
    const [{ id }] = (await source.app.get(DataSource).query(`SELECT id FROM posts WHERE slug = 'bai-viet-2'`)) as { id: number }[];
    await source.http
      .put(api(`/blog/posts/${id}`))
      .set(sourceAdmin.auth)
      .set('X-Request-Timestamp', String(Date.now()))
      .send({ slug: 'renamed-in-editor' })
      .expect(200);

    const exported = await source.http
      .get(api('/admin/export'))
      .set(sourceAdmin.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(exported.headers['content-type']).toBe('application/zip');
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="inkwell-export-\d{4}-\d\d-\d\d\.zip"$/);
    // Refused by anyone but an admin.
    const author = await createAuthor(source);
    await source.http.get(api('/admin/export')).set(author.auth).expect(403);
    await source.http.get(api('/admin/export')).expect(401);

    // The empty site, started now: sign-in strategies are registered per process, the last app's wins.
    target = await createTestApp({ databaseUrl: await createFreshDatabase('inkwell_export_into'), env: { JOB_POLL_SECONDS: '1' } });
    const exportPath = join(target.dataDir, 'export.zip');
    writeFileSync(exportPath, exported.body as Buffer);

    const targetAdmin = await createAdmin(target);
    const done = await importAndWait(target, targetAdmin, 'inkwell', exportPath);
    expect(done.state).toBe('DONE');
    // Nothing renamed; the source's administrator comes in as an author (an import never grants ADMIN).
    expect(done.renamed).toEqual([expect.objectContaining({ kind: 'user', from: 'ADMIN', to: 'AUTHOR' })]);
    const [before, after] = await Promise.all([snapshot(source), snapshot(target)]);
    expect((before.posts as unknown[]).length).toBe(options.posts - wxrFacts(options).byStatus.trash);
    expect(after.posts).toEqual(before.posts);
    expect(after.comments).toEqual(before.comments);
    expect(after.tags).toEqual(before.tags);
    expect(after.users).toEqual(before.users);
    await target.http
      .get(api('/blog/posts/public/moved/bai-viet-2'))
      .expect(200, { success: true, data: { slug: 'renamed-in-editor' }, message: 'OK', status: 200, errors: null });
  }, 120_000);
});
