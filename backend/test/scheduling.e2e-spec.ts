import { DataSource } from 'typeorm';
import { CLOCK, ShiftableClock } from '../src/common/clock';
import { ContentChange, ContentEvents } from '../src/common/content-events';
import { createDataSource } from '../src/database/data-source';
import { ScheduledPublisher } from '../src/scheduling/scheduled-publisher';
import { SchedulingService } from '../src/scheduling/scheduling.service';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';
import { sitemapSlugs } from './helpers/sitemap';

const MINUTE = 60_000;
// One key for every app of this file: a token signed by one is valid on the others.
const env = { JWT_SECRET: 'scheduling-e2e-shared-secret-of-32-chars-or-more' };

/**
 * Scheduled publishing, on a database of its own (so this file's apps hold the
 * scheduler's advisory lock, not another suite's). Time moves with the app's injected clock
 * (CLOCK), never with real sleeps: a post scheduled a few minutes ahead of the real time is due
 * once the clock is moved past it, and the sweep is run at once.
 */
describe('Scheduled publishing', () => {
  let databaseUrl: string;
  let t: TestApp;
  let dataSource: DataSource;
  let clock: ShiftableClock;
  let publisher: ScheduledPublisher;
  let admin: TestUser;
  let author: TestUser;
  let reader: TestUser;
  let tagSlug: string;
  /** A published post sharing the tag and title words with the scheduled ones (its related list). */
  let neighbour: { id: number; slug: string };
  const events: ContentChange[] = [];

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase('inkwell_scheduling');
    t = await createTestApp({ databaseUrl, env });
    dataSource = t.app.get(DataSource);
    const appClock = t.app.get(CLOCK);
    if (!(appClock instanceof ShiftableClock)) throw new Error('the app clock is not the shiftable system clock');
    clock = appClock;
    publisher = t.app.get(ScheduledPublisher);
    await publisher.idle();
    t.app.get(ContentEvents).onChange((change) => events.push(change));
    admin = await createAdmin(t);
    author = await createAuthor(t);
    reader = await createReader(t);
    tagSlug = `sched-${uid()}`;
    await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Sched ${tagSlug}`, slug: tagSlug })
      .expect(201);
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: 'Harbour lighthouse keepers', content: 'Already public.', status: 'PUBLISHED', tagSlugs: [tagSlug] })
      .expect(201);
    neighbour = res.body.data;
  });
  afterAll(() => t?.close());
  afterEach(() => {
    clock.offsetMs = 0;
  });

  /** An ISO time `minutes` after the app clock's now, with the site's zone written as an offset (as an admin in Vietnam sends it). */
  const inMinutes = (minutes: number): string => {
    const at = new Date(clock.now().getTime() + minutes * MINUTE);
    return `${new Date(at.getTime() + 7 * 60 * MINUTE).toISOString().slice(0, 19)}+07:00`;
  };

  async function pendingPost(body: Record<string, unknown> = {}): Promise<{ id: number; slug: string; word: string }> {
    const word = `quill${uid()}`;
    const res = await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: `Harbour lighthouse ${word}`, content: `About ${word}.`, tagSlugs: [tagSlug] });
    expect(res.status).toBe(201);
    await t.http
      .post(api(`/blog/posts/author/${res.body.data.id}/submit-for-review`))
      .set(author.auth)
      .send(body)
      .expect(200);
    return { id: res.body.data.id, slug: res.body.data.slug, word };
  }

  /** Runs a sweep now (after any running one); the ids it published (posts of earlier tests may fall due too). */
  const sweep = async (): Promise<number[]> => (await publisher.sweepNow()).map((post) => post.id);

  const review = (id: number, body: Record<string, unknown>, user: TestUser = admin) =>
    t.http
      .put(api(`/blog/posts/admin/${id}/review`))
      .set(user.auth)
      .send(body);
  const reschedule = (id: number, body: Record<string, unknown>, user: TestUser = admin) =>
    t.http
      .put(api(`/blog/posts/admin/${id}/schedule`))
      .set(user.auth)
      .send(body);
  const cancel = (id: number, user: TestUser = admin) => t.http.delete(api(`/blog/posts/admin/${id}/schedule`)).set(user.auth);

  /** Where the post shows on every public read (the pages, feeds and sitemap are built from these answers). */
  async function publicReads(post: { id: number; slug: string; word: string }): Promise<Record<string, boolean>> {
    const ids = (body: { data: { content?: { id: number }[] } | { id: number }[] }) =>
      (Array.isArray(body.data) ? body.data : (body.data.content ?? [])).map((item) => item.id);
    const [bySlug, list, tagList, search, sitemap, authorPosts, authorProfile, related] = await Promise.all([
      t.http.get(api(`/blog/posts/public/${post.slug}`)),
      t.http.get(api('/blog/posts/public?page=0&size=100')),
      t.http.get(api(`/blog/posts/public/tag/${tagSlug}?page=0&size=100`)),
      t.http.get(api(`/blog/search?q=${post.word}`)),
      sitemapSlugs(t, 'posts'),
      t.http.get(api(`/blog/authors/${author.slug}/posts?page=0&size=100`)),
      t.http.get(api(`/blog/authors/${author.slug}`)),
      t.http.get(api(`/blog/posts/public/${neighbour.slug}/related`)),
    ]);
    return {
      bySlug: bySlug.status === 200,
      // The home page and the RSS feed read this list.
      list: ids(list.body).includes(post.id),
      tagList: ids(tagList.body).includes(post.id),
      search: search.status === 200 && ids(search.body).includes(post.id),
      sitemap: sitemap.includes(post.slug),
      authorPosts: authorPosts.status === 200 && ids(authorPosts.body).includes(post.id),
      authorProfile: authorProfile.status === 200 && authorProfile.body.data.postCount > 0,
      related: ids(related.body).includes(post.id),
    };
  }
  const everywhere = (value: boolean) => ({
    bySlug: value,
    list: value,
    tagList: value,
    search: value,
    sitemap: value,
    authorPosts: value,
    authorProfile: value,
    related: value,
  });

  const auditOf = (
    postId: number,
  ): Promise<{ type: string; actor_id: number | null; description: string; details: Record<string, unknown> }[]> =>
    dataSource.query(
      `SELECT type, actor_id, description, details FROM audit_log WHERE target_type = 'post' AND target_id = $1 ORDER BY id`,
      [postId],
    );

  it('approve with publishAt → hidden from every public read → the time comes, the sweep runs → public everywhere, publishedAt = the scheduled time', async () => {
    const post = await pendingPost();
    const publishAt = inMinutes(30);
    const res = await review(post.id, { status: 'APPROVED', publishAt }).expect(200);
    expect(res.body.message).toBe('Post approved and scheduled.');
    expect(res.body.data.post).toMatchObject({
      status: 'PENDING_REVIEW',
      scheduledAt: new Date(publishAt).toISOString(),
      publishedAt: null,
    });
    expect(res.body.data.review).toMatchObject({ status: 'APPROVED' });
    expect(await publicReads(post)).toEqual(everywhere(false));

    // The author's and the admin's lists say it is scheduled.
    const mine = await t.http.get(api('/blog/posts/author/my-posts?size=100')).set(author.auth).expect(200);
    expect(mine.body.data.content.find((item: { id: number }) => item.id === post.id)).toMatchObject({
      status: 'PENDING_REVIEW',
      scheduledAt: new Date(publishAt).toISOString(),
    });
    const all = await t.http.get(api('/blog/posts/admin/all?status=PENDING_REVIEW&size=100')).set(admin.auth).expect(200);
    expect(all.body.data.content.find((item: { id: number }) => item.id === post.id)).toMatchObject({
      scheduledAt: new Date(publishAt).toISOString(),
    });

    // The author's dashboard says so, with the time in the site's zone.
    const dashboard = await t.http.get(api('/dashboard/author/stats')).set(author.auth).expect(200);
    expect(dashboard.body.data.recentActivities).toContainEqual(
      expect.objectContaining({
        type: 'POST_CREATED',
        title: 'Post scheduled',
        description: expect.stringMatching(/^".+" was approved and is scheduled for .+ GMT\+7\.$/),
      }),
    );

    // The author is told, with the time.
    const inbox = await t.http.get(api('/notifications')).set(author.auth).expect(200);
    expect(inbox.body.data.content[0]).toMatchObject({
      type: 'POST_APPROVED',
      publishAt: new Date(publishAt).toISOString(),
      link: '/author/posts',
      post: { id: post.id },
    });

    // A minute before: a sweep leaves it alone.
    clock.offsetMs = 29 * MINUTE;
    expect(await sweep()).not.toContain(post.id);
    expect((await publicReads(post)).bySlug).toBe(false);

    clock.offsetMs = 31 * MINUTE;
    events.length = 0;
    expect(await sweep()).toContain(post.id);
    // Every cache (on every instance, through the relay) drops what shows the post.
    expect(events).toContainEqual({ kind: 'post', postId: post.id, slugs: [post.slug] });
    expect(await publicReads(post)).toEqual(everywhere(true));
    const published = await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);
    expect(published.body.data).toMatchObject({
      status: 'PUBLISHED',
      publishedAt: new Date(publishAt).toISOString(),
      scheduledAt: null,
      requestedPublishAt: null,
    });

    const audit = await auditOf(post.id);
    expect(audit.map((entry) => entry.type)).toEqual(['POST_CREATED', 'POST_SCHEDULED', 'POST_PUBLISHED']);
    expect(audit[2]).toMatchObject({ actor_id: null, details: { via: 'schedule', scheduledBy: admin.id } });
    // A second sweep finds nothing more.
    expect(await sweep()).toEqual([]);
  });

  it('the scheduled publish is a new version: an editor opened before it gets 409 changed elsewhere on save, the published text stays, and the stream records it', async () => {
    const post = await pendingPost();
    const publishAt = inMinutes(30);
    await review(post.id, { status: 'APPROVED', publishAt }).expect(200);
    // The admin opens the scheduled post in the editor: the version it holds.
    const opened = (
      await t.http
        .get(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .expect(200)
    ).body.data;
    expect(opened.allowedActions).toEqual(expect.arrayContaining(['reschedule', 'cancelSchedule']));

    clock.offsetMs = 31 * MINUTE;
    expect(await sweep()).toContain(post.id);
    const published = (
      await t.http
        .get(api(`/blog/posts/${post.id}`))
        .set(admin.auth)
        .expect(200)
    ).body.data;
    expect(published).toMatchObject({ status: 'PUBLISHED', version: opened.version + 1 });

    // The editor saves what it opened before the sweep: refused, nothing changed silently.
    const stale = await t.http
      .put(api(`/blog/posts/${post.id}`))
      .set(admin.auth)
      .send({ title: 'Edited before it went public', version: opened.version })
      .expect(409);
    expect(stale.body).toMatchObject({ success: false, status: 409, message: 'This post was changed elsewhere since you opened it.' });
    expect(stale.body.data.current).toMatchObject({ status: 'PUBLISHED', version: published.version });
    expect((await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200)).body.data.title).toBe(published.title);

    // The published text is kept as a pinned revision, and the stream says what happened, in order.
    const revisions = (
      await t.http
        .get(api(`/blog/posts/${post.id}/revisions`))
        .set(admin.auth)
        .expect(200)
    ).body.data.content;
    expect(revisions[0]).toMatchObject({ kind: 'APPROVED', pinned: true });
    const stream = (await dataSource.query(
      `SELECT name, actor_id, data FROM domain_events WHERE subject_type = 'post' AND subject_id = $1 ORDER BY id`,
      [post.id],
    )) as {
      name: string;
      actor_id: number | null;
      data: Record<string, unknown>;
    }[];
    expect(stream.map((event) => event.name)).toEqual(['post.created', 'post.submitted', 'post.scheduled', 'post.published']);
    expect(stream[3]).toMatchObject({
      actor_id: null,
      data: {
        postId: post.id,
        status: 'PUBLISHED',
        previousStatus: 'PENDING_REVIEW',
        via: 'schedule',
        version: published.version,
        scheduledBy: admin.id,
      },
    });
  });

  it('the author requests a time on submit; the reviewer sees it and keeps it (or approves without a time: published now, the request cleared)', async () => {
    const requested = inMinutes(90);
    const post = await pendingPost({ requestedPublishAt: requested });
    const seen = await t.http
      .get(api(`/blog/posts/${post.id}`))
      .set(admin.auth)
      .expect(200);
    expect(seen.body.data).toMatchObject({
      status: 'PENDING_REVIEW',
      requestedPublishAt: new Date(requested).toISOString(),
      scheduledAt: null,
    });
    const kept = await review(post.id, { status: 'APPROVED', publishAt: seen.body.data.requestedPublishAt }).expect(200);
    expect(kept.body.data.post).toMatchObject({
      scheduledAt: new Date(requested).toISOString(),
      requestedPublishAt: new Date(requested).toISOString(),
    });

    const other = await pendingPost({ requestedPublishAt: inMinutes(90) });
    const now = await review(other.id, { status: 'APPROVED' }).expect(200);
    expect(now.body.message).toBe('Post approved and published.');
    expect(now.body.data.post).toMatchObject({ status: 'PUBLISHED', scheduledAt: null, requestedPublishAt: null });

    // No body, or no time: as before scheduling existed.
    const plain = await pendingPost();
    expect(
      (
        await t.http
          .get(api(`/blog/posts/${plain.id}`))
          .set(author.auth)
          .expect(200)
      ).body.data.requestedPublishAt,
    ).toBeNull();
  });

  it('reschedule and cancel (admins; audited); the new time is the one the sweep keeps', async () => {
    const post = await pendingPost();
    await review(post.id, { status: 'APPROVED', publishAt: inMinutes(10) }).expect(200);
    const later = inMinutes(120);
    const moved = await reschedule(post.id, { publishAt: later }).expect(200);
    expect(moved.body).toMatchObject({
      message: 'Schedule updated.',
      data: { id: post.id, status: 'PENDING_REVIEW', scheduledAt: new Date(later).toISOString() },
    });

    clock.offsetMs = 60 * MINUTE;
    expect(await sweep()).not.toContain(post.id);
    clock.offsetMs = 0;

    const cancelled = await cancel(post.id).expect(200);
    expect(cancelled.body).toMatchObject({
      message: 'Schedule cancelled.',
      data: { id: post.id, status: 'PENDING_REVIEW', scheduledAt: null },
    });
    clock.offsetMs = 180 * MINUTE;
    expect(await sweep()).not.toContain(post.id);
    expect((await publicReads(post)).bySlug).toBe(false);

    const audit = await auditOf(post.id);
    expect(audit.map((entry) => entry.type)).toEqual(['POST_CREATED', 'POST_SCHEDULED', 'POST_RESCHEDULED', 'POST_SCHEDULE_CANCELLED']);
    expect(audit[2].details).toMatchObject({ to: new Date(later).toISOString() });
    // Descriptions (the admin's Recent Activity) name times as the pages do: the site's zone, named.
    for (const entry of audit.slice(1))
      expect(entry.description).toMatch(/(scheduled for|published at) [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M GMT\+7/);

    // Not scheduled any more: both are 409; unknown post 404; malformed id 400.
    const notScheduled = 'This post is not scheduled: only an approved post waiting for its publish time can be rescheduled or cancelled.';
    expect((await cancel(post.id).expect(409)).body).toEqual(err(409, notScheduled));
    clock.offsetMs = 0;
    expect((await reschedule(post.id, { publishAt: inMinutes(30) }).expect(409)).body).toEqual(err(409, notScheduled));
    await cancel(999_999).expect(404);
    await t.http.delete(api('/blog/posts/admin/abc/schedule')).set(admin.auth).expect(400);
  });

  it('rejecting a scheduled post, or changing its status through an update, clears the schedule; an edit keeps it', async () => {
    const rejected = await pendingPost();
    await review(rejected.id, { status: 'APPROVED', publishAt: inMinutes(10) }).expect(200);
    const res = await review(rejected.id, { status: 'REJECTED', rejectionReason: 'Not yet' }).expect(200);
    expect(res.body.data.post).toMatchObject({ status: 'REJECTED', scheduledAt: null });
    expect((await auditOf(rejected.id)).at(-1)).toMatchObject({ type: 'POST_REJECTED', details: { droppedSchedule: expect.any(String) } });

    const edited = await pendingPost();
    const at = inMinutes(10);
    await review(edited.id, { status: 'APPROVED', publishAt: at }).expect(200);
    const kept = await t.http
      .put(api(`/blog/posts/${edited.id}`))
      .set(admin.auth)
      .send({ title: 'Harbour lighthouse, edited' })
      .expect(200);
    expect(kept.body.data).toMatchObject({ status: 'PENDING_REVIEW', scheduledAt: new Date(at).toISOString() });
    const drafted = await t.http
      .put(api(`/blog/posts/${edited.id}`))
      .set(admin.auth)
      .send({ status: 'DRAFT' })
      .expect(200);
    expect(drafted.body.data).toMatchObject({ status: 'DRAFT', scheduledAt: null });
    const dropped = (await auditOf(edited.id)).find((entry) => entry.type === 'POST_SCHEDULE_CANCELLED');
    expect(dropped?.description).toMatch(
      /will not be published at [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M GMT\+7: its status was changed to DRAFT$/,
    );

    clock.offsetMs = 20 * MINUTE;
    const swept = await sweep();
    expect(swept).not.toContain(rejected.id);
    expect(swept).not.toContain(edited.id);
  });

  it('400 for a publish time in the past, less than a minute ahead, beyond a year, malformed, without a zone, or with REJECTED', async () => {
    const post = await pendingPost();
    const cases: [unknown, string][] = [
      [new Date(clock.now().getTime() - MINUTE).toISOString(), 'Publish time must be at least 1 minute in the future.'],
      [new Date(clock.now().getTime() + 20_000).toISOString(), 'Publish time must be at least 1 minute in the future.'],
      [new Date(clock.now().getTime() + 367 * 24 * 60 * MINUTE).toISOString(), 'Publish time must be at most 1 year ahead.'],
      ['tomorrow', 'Publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.'],
      ['2030-02-30T10:00:00Z', 'Publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.'],
      ['2030-01-01T10:00:00', 'Publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.'],
      ['', 'Publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.'],
      [12345, 'Publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.'],
    ];
    for (const [publishAt, message] of cases) {
      expect((await review(post.id, { status: 'APPROVED', publishAt }).expect(400)).body).toEqual(
        err(400, message, { publishAt: [message] }),
      );
    }
    const onlyApproving = 'A publish time can only be set when approving a post.';
    expect((await review(post.id, { status: 'REJECTED', rejectionReason: 'No', publishAt: inMinutes(10) }).expect(400)).body).toEqual(
      err(400, onlyApproving, { publishAt: [onlyApproving] }),
    );

    // Nothing was written by the refused reviews.
    expect(
      (
        await t.http
          .get(api(`/blog/posts/${post.id}`))
          .set(admin.auth)
          .expect(200)
      ).body.data,
    ).toMatchObject({ status: 'PENDING_REVIEW', scheduledAt: null });
    expect((await dataSource.query(`SELECT count(*)::int AS n FROM post_reviews WHERE post_id = $1`, [post.id]))[0].n).toBe(0);

    // The same rules for reschedule and for the author's requested time.
    await review(post.id, { status: 'APPROVED', publishAt: inMinutes(10) }).expect(200);
    expect((await reschedule(post.id, {}).expect(400)).body.errors).toEqual({
      publishAt: ['Publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.'],
    });
    expect(
      (await reschedule(post.id, { publishAt: new Date(clock.now().getTime() - MINUTE).toISOString() }).expect(400)).body.errors,
    ).toEqual({
      publishAt: ['Publish time must be at least 1 minute in the future.'],
    });
    const draft = await t.http
      .post(api('/blog/posts/author/create'))
      .set(author.auth)
      .send({ title: `Draft ${uid()}`, content: 'c' })
      .expect(201);
    const submit = (body: Record<string, unknown>) =>
      t.http
        .post(api(`/blog/posts/author/${draft.body.data.id}/submit-for-review`))
        .set(author.auth)
        .send(body);
    expect((await submit({ requestedPublishAt: 'soon' }).expect(400)).body.errors).toEqual({
      requestedPublishAt: ['Requested publish time must be a date and time with its time zone, e.g. 2026-12-01T09:00:00+07:00.'],
    });
    expect(
      (await submit({ requestedPublishAt: new Date(clock.now().getTime() + 400 * 24 * 60 * MINUTE).toISOString() }).expect(400)).body
        .errors,
    ).toEqual({
      requestedPublishAt: ['Requested publish time must be at most 1 year ahead.'],
    });
    expect(
      (
        await t.http
          .get(api(`/blog/posts/${draft.body.data.id}`))
          .set(author.auth)
          .expect(200)
      ).body.data.status,
    ).toBe('DRAFT');
  });

  it('401 signed out, 403 for authors and readers on reschedule and cancel', async () => {
    const post = await pendingPost();
    await review(post.id, { status: 'APPROVED', publishAt: inMinutes(10) }).expect(200);
    await t.http
      .put(api(`/blog/posts/admin/${post.id}/schedule`))
      .send({ publishAt: inMinutes(20) })
      .expect(401);
    await t.http.delete(api(`/blog/posts/admin/${post.id}/schedule`)).expect(401);
    for (const user of [author, reader]) {
      expect((await reschedule(post.id, { publishAt: inMinutes(20) }, user).expect(403)).body).toEqual(
        err(403, 'You do not have permission to schedule posts.'),
      );
      expect((await cancel(post.id, user).expect(403)).body).toEqual(err(403, 'You do not have permission to schedule posts.'));
    }
  });

  it('the test clock is not mounted without TEST_CLOCK_CONTROL (404)', async () => {
    await t.http.put(api('/test/clock')).set(admin.auth).send({ offsetSeconds: 60 }).expect(404);
  });

  describe('start-up', () => {
    it('a post that fell due while no instance ran is published at boot; the test clock (TEST_CLOCK_CONTROL=1) moves time for admins only', async () => {
      const missed = await pendingPost();
      await review(missed.id, { status: 'APPROVED', publishAt: inMinutes(5) }).expect(200);
      const later = await pendingPost();
      await review(later.id, { status: 'APPROVED', publishAt: inMinutes(60) }).expect(200);
      // Every instance stops; meanwhile the time passes (written as if the post had been due 10 minutes ago).
      await t.close();
      const writer = createDataSource(databaseUrl);
      await writer.initialize();
      await writer.query(`UPDATE posts SET scheduled_at = now() - interval '10 minutes' WHERE id = $1`, [missed.id]);
      await writer.destroy();

      t = await createTestApp({ databaseUrl, env: { ...env, TEST_CLOCK_CONTROL: '1' } });
      dataSource = t.app.get(DataSource);
      clock = t.app.get(CLOCK) as ShiftableClock;
      publisher = t.app.get(ScheduledPublisher);
      await publisher.idle();
      expect((await t.http.get(api(`/blog/posts/public/${missed.slug}`)).expect(200)).body.data.status).toBe('PUBLISHED');
      await t.http.get(api(`/blog/posts/public/${later.slug}`)).expect(404);

      // The browser tests' clock: admins only, validated, and it sweeps at once.
      await t.http.put(api('/test/clock')).send({ offsetSeconds: 3600 }).expect(401);
      await t.http.put(api('/test/clock')).set(author.auth).send({ offsetSeconds: 3600 }).expect(403);
      expect((await t.http.put(api('/test/clock')).set(admin.auth).send({ offsetSeconds: 'soon' }).expect(400)).body.message).toBe(
        'offsetSeconds must be a whole number of seconds from -31622400 to 31622400.',
      );
      const moved = await t.http
        .put(api('/test/clock'))
        .set(admin.auth)
        .send({ offsetSeconds: 2 * 3600 })
        .expect(200);
      // `later`, and the posts earlier tests left scheduled within the two hours.
      expect(moved.body.data).toMatchObject({ offsetSeconds: 7200, now: expect.any(String) });
      expect(moved.body.data.published).toBeGreaterThanOrEqual(1);
      expect((await t.http.get(api(`/blog/posts/public/${later.slug}`)).expect(200)).body.data.status).toBe('PUBLISHED');
    });
  });
  // Last: Passport keeps one strategy per process, the last app's, so the first app's sessions are
  // read through the second app's database pool, which this block closes at its end.
  describe('two instances on one database', () => {
    let second: TestApp;
    beforeAll(async () => {
      second = await createTestApp({ databaseUrl, env });
    });
    afterAll(() => second?.close());

    it('publish each due post exactly once, whichever instance sweeps and however often', async () => {
      const posts = [];
      for (let i = 0; i < 6; i += 1) posts.push(await pendingPost());
      for (const [i, post] of posts.entries()) await review(post.id, { status: 'APPROVED', publishAt: inMinutes(5 + i) }).expect(200);
      const secondClock = second.app.get(CLOCK) as ShiftableClock;
      clock.offsetMs = 20 * MINUTE;
      secondClock.offsetMs = 20 * MINUTE;
      const services = [t.app.get(SchedulingService), second.app.get(SchedulingService)];
      // Both instances' sweeps at once (the lock bypassed: the row lock alone must keep it to one publication), and both publishers.
      const results = await Promise.all([
        ...services.map((s) => s.publishDue()),
        ...services.map((s) => s.publishDue()),
        publisher.sweepNow(),
        second.app.get(ScheduledPublisher).sweepNow(),
      ]);
      secondClock.offsetMs = 0;
      const publishedIds = results.flat().map((post) => post.id);
      // Posts of earlier tests fall due too; none is published twice, and every one of these once.
      expect(new Set(publishedIds).size).toBe(publishedIds.length);
      for (const post of posts) expect(publishedIds).toContain(post.id);
      for (const post of posts) {
        const publications = (await auditOf(post.id)).filter((entry) => entry.type === 'POST_PUBLISHED');
        expect(publications).toHaveLength(1);
      }
      // The advisory lock: the first app holds it, the second's publisher skips its sweeps.
      expect(publisher.lock?.held).toBe(true);
      expect(second.app.get(ScheduledPublisher).lock?.held).toBe(false);
    });
  });
});
