import { DataSource } from 'typeorm';
import { NewsletterAccountDataService } from '../src/newsletter/newsletter-account-data';
import { NewsletterLinks } from '../src/newsletter/newsletter-links';
import { SubscriptionsService } from '../src/newsletter/subscriptions.service';
import { createTestApp, TestApp } from './helpers/app';
import { createFreshDatabase } from './helpers/fresh-database';
import { api, err, uid } from './helpers/envelope';
import { CapturedMail, MailCatcher, startMailCatcher } from './helpers/mail';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

/**
 * Following by e-mail (docs/newsletter.md): a reader's one-call follows, a visitor's double
 * opt-in through the captured SMTP mailbox, the recipients query (one e-mail whatever the
 * follows), one-click unsubscribe (RFC 8058: no cookie, one follow only), the signed preferences
 * link, the back-office with CSV import (Inkwell, Ghost, Substack; all or nothing) and export, and
 * what an account's erasure and data export do.
 */
const JWT_SECRET = 'newsletter-e2e-secret-0123456789abcdefgh';
/** The confirmation goes through the job queue: on a busy machine (suites in parallel) it can take a while. */
const MAIL_WAIT_MS = 30_000;
// Two confirmation e-mails in one test: more than jest's default 30 s when the machine is busy.
jest.setTimeout(90_000);
const SENT = 'Check your inbox: we sent a link to confirm your e-mail address';

describe('Newsletter: following and subscribers', () => {
  let mail: MailCatcher;
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  let author: TestUser;
  let reader: TestUser;
  let tagId: number;
  let tagSlug: string;

  beforeAll(async () => {
    mail = await startMailCatcher();
    // A database of its own: its job queue too, so no other suite's app takes (and mails) its jobs.
    t = await createTestApp({
      databaseUrl: await createFreshDatabase('inkwell_newsletter'),
      env: { SMTP_URL: mail.url, JWT_SECRET, JOB_RETRY_LIMIT: '1', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '1' },
    });
    db = t.app.get(DataSource);
    [admin, author, reader] = await Promise.all([createAdmin(t), createAuthor(t), createReader(t)]);
    tagSlug = `nl-tag-${uid()}`;
    [{ id: tagId }] = await db.query(`INSERT INTO tags (name, slug) VALUES ($1, $2) RETURNING id`, [`Newsletter ${tagSlug}`, tagSlug]);
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
  });

  const visitorEmail = () => `visitor-${uid()}@example.com`;
  const confirmTokenOf = (message: CapturedMail) => /\/newsletter\/confirm\?token=([A-Za-z0-9_.%-]+)/.exec(message.text)![1];
  const subscriberOf = async (email: string) =>
    (
      (await db.query(`SELECT id, status, source, user_id FROM newsletter_subscribers WHERE email = $1`, [email])) as {
        id: number;
        status: string;
        source: string;
        user_id: number | null;
      }[]
    )[0];
  const followsOf = async (subscriberId: number) =>
    (
      (await db.query(`SELECT kind, target_id FROM newsletter_follows WHERE subscriber_id = $1 ORDER BY kind, target_id`, [
        subscriberId,
      ])) as {
        kind: string;
        target_id: number;
      }[]
    ).map((row) => `${row.kind}:${row.target_id}`);

  it('a reader follows the publication, an author and a tag with one call each, lists them, unfollows; errors are 4xx', async () => {
    const me = await createReader(t);
    expect((await t.http.get(api('/newsletter/follows')).set(me.auth).expect(200)).body.data).toEqual({ subscriber: null, follows: [] });
    const followed = await t.http
      .put(api(`/newsletter/follows/author/${author.id}`))
      .set(me.auth)
      .expect(200);
    expect(followed.body).toMatchObject({
      message: 'You now get new posts by e-mail',
      data: { kind: 'author', targetId: author.id, name: author.fullName },
    });
    await t.http
      .put(api(`/newsletter/follows/author/${author.id}`))
      .set(me.auth)
      .expect(200); // idempotent
    await t.http.put(api('/newsletter/follows/publication/0')).set(me.auth).expect(200);
    await t.http
      .put(api(`/newsletter/follows/tag/${tagId}`))
      .set(me.auth)
      .expect(200);
    const list = (await t.http.get(api('/newsletter/follows')).set(me.auth).expect(200)).body.data;
    expect(list.subscriber).toEqual({ email: me.email, status: 'active', cadence: 'instant', digestWeekday: null });
    expect(list.follows.map((f: { kind: string; name: string }) => `${f.kind}:${f.name}`)).toEqual([
      'publication:Every new post',
      `author:${author.fullName}`,
      `tag:Newsletter ${tagSlug}`,
    ]);
    expect(await subscriberOf(me.email)).toMatchObject({ status: 'active', source: 'account', user_id: me.id });

    await t.http
      .delete(api(`/newsletter/follows/tag/${tagId}`))
      .set(me.auth)
      .expect(200);
    await t.http
      .delete(api(`/newsletter/follows/tag/${tagId}`))
      .set(me.auth)
      .expect(200);
    expect((await t.http.get(api('/newsletter/follows')).set(me.auth).expect(200)).body.data.follows).toHaveLength(2);

    await t.http
      .put(api(`/newsletter/follows/author/${reader.id}`))
      .set(me.auth)
      .expect(404); // a reader is no author
    await t.http.put(api('/newsletter/follows/tag/999999')).set(me.auth).expect(404);
    await t.http.put(api('/newsletter/follows/publication/5')).set(me.auth).expect(404);
    await t.http.put(api('/newsletter/follows/planet/1')).set(me.auth).expect(400);
    await t.http.put(api('/newsletter/follows/author/-1')).set(me.auth).expect(400);
    await t.http.put(api(`/newsletter/follows/author/${author.id}`)).expect(401);
    await t.http.put(api('/newsletter/settings')).set(me.auth).send({ cadence: 'weekly' }).expect(400);
    const weekly = await t.http.put(api('/newsletter/settings')).set(me.auth).send({ cadence: 'weekly', digestWeekday: 1 }).expect(200);
    expect(weekly.body.data).toMatchObject({ cadence: 'weekly', digestWeekday: 1 });
    // The author sees their follower count (the reader above, active).
    expect((await t.http.get(api('/newsletter/followers/count')).set(author.auth).expect(200)).body.data.count).toBeGreaterThanOrEqual(1);
  });

  it('double opt-in: a visitor is pending and gets nothing until the link is used; the same answer for every address; reusing the link is harmless', async () => {
    const email = visitorEmail();
    const since = mail.messages.length;
    const res = await t.http
      .post(api('/newsletter/subscribe'))
      .send({ email: email.toUpperCase(), name: 'Vi Sitor', kind: 'author', targetId: author.id })
      .expect(202);
    expect(res.body).toEqual({ success: true, data: null, message: SENT, status: 202, errors: null });
    const pending = await subscriberOf(email);
    expect(pending).toMatchObject({ status: 'pending', source: 'page', user_id: null });
    expect(await followsOf(pending.id)).toEqual([`author:${author.id}`]);
    // Pending: not a recipient of the author's post.
    const recipients = () => t.app.get(SubscriptionsService).recipientsForPost(1, author.id, []);
    expect((await recipients()).map((r) => r.email)).not.toContain(email);

    const letter = await mail.waitFor(email, { since, timeoutMs: MAIL_WAIT_MS });
    expect(letter.subject).toBe('Confirm your e-mail to get new posts');
    expect(letter.text).toContain(`new posts by ${author.fullName}`);
    const token = decodeURIComponent(confirmTokenOf(letter));
    // The page's GET changes nothing (mail scanners open links).
    const info = await t.http.get(api(`/newsletter/confirm?token=${encodeURIComponent(token)}`)).expect(200);
    expect(info.body.data).toMatchObject({ email, confirmed: false, follow: { kind: 'author', name: author.fullName } });
    expect((await subscriberOf(email)).status).toBe('pending');

    const confirmed = await t.http.post(api(`/newsletter/confirm?token=${encodeURIComponent(token)}`)).expect(200);
    expect(confirmed.body.data).toMatchObject({ email, confirmed: true, preferencesToken: expect.stringMatching(/^p\.\d+\./) });
    expect((await subscriberOf(email)).status).toBe('active');
    expect((await recipients()).filter((r) => r.email === email)).toHaveLength(1);
    await t.http.post(api(`/newsletter/confirm?token=${encodeURIComponent(token)}`)).expect(200); // again: harmless

    // One confirmation e-mail a minute per address: move the first one's time back.
    await db.query(`UPDATE newsletter_subscribers SET confirm_expires_at = confirm_expires_at - interval '2 minutes' WHERE email = $1`, [
      email,
    ]);
    // The same answer for an address already subscribed, and for a malformed one only a 400 on the field.
    const again = await t.http.post(api('/newsletter/subscribe')).send({ email, kind: 'tag', targetId: tagId }).expect(202);
    expect(again.body).toEqual(res.body);
    // An active address gets the new follow only through its own confirmation link.
    expect(await followsOf(pending.id)).toEqual([`author:${author.id}`]);
    const second = await mail.waitFor(email, { since: mail.messages.indexOf(letter) + 1, timeoutMs: MAIL_WAIT_MS });
    await t.http.post(api(`/newsletter/confirm?token=${confirmTokenOf(second)}`)).expect(200);
    expect(await followsOf(pending.id)).toEqual([`author:${author.id}`, `tag:${tagId}`]);
    // The first link was replaced by the second.
    await t.http.post(api(`/newsletter/confirm?token=${encodeURIComponent(token)}`)).expect(400);

    await t.http.post(api('/newsletter/subscribe')).send({ email: 'not-an-address', kind: 'publication', targetId: 0 }).expect(400);
    await t.http.post(api('/newsletter/subscribe')).send({ email: visitorEmail(), kind: 'author', targetId: 999999 }).expect(404);
  });

  it('an expired confirmation link is 410 and confirms nothing; a tampered one is 400', async () => {
    const email = visitorEmail();
    const since = mail.messages.length;
    await t.http.post(api('/newsletter/subscribe')).send({ email, kind: 'publication', targetId: 0 }).expect(202);
    const token = confirmTokenOf(await mail.waitFor(email, { since, timeoutMs: MAIL_WAIT_MS }));
    await db.query(`UPDATE newsletter_subscribers SET confirm_expires_at = now() - interval '1 minute' WHERE email = $1`, [email]);
    const res = await t.http.post(api(`/newsletter/confirm?token=${token}`)).expect(410);
    expect(res.body).toEqual(err(410, 'This confirmation link has expired. Follow again to get a new one.'));
    expect((await subscriberOf(email)).status).toBe('pending');
    const tampered = token.replace(/\.p0$/, '.p1');
    await t.http.post(api(`/newsletter/confirm?token=${tampered}`)).expect(400);
    await t.http.get(api('/newsletter/confirm?token=nothing')).expect(400);
    await t.http.get(api('/newsletter/confirm')).expect(400);
  });

  it('one subscriber following the publication, the author and a tag is ONE recipient; suppressed, pending, weekly and the author are not', async () => {
    const fan = await createReader(t);
    for (const path of ['publication/0', `author/${author.id}`, `tag/${tagId}`])
      await t.http
        .put(api(`/newsletter/follows/${path}`))
        .set(fan.auth)
        .expect(200);
    const suppressed = await createReader(t);
    await t.http.put(api('/newsletter/follows/publication/0')).set(suppressed.auth).expect(200);
    await db.query(`INSERT INTO newsletter_suppressions (email, reason) VALUES ($1, 'hard_bounce')`, [suppressed.email]);
    await t.http.put(api('/newsletter/follows/publication/0')).set(author.auth).expect(200);

    const recipients = await t.app.get(SubscriptionsService).recipientsForPost(1, author.id, [tagId]);
    const mine = recipients.filter((r) => r.email === fan.email);
    expect(mine).toHaveLength(1);
    const [authorFollow] = await db.query(
      `SELECT f.id FROM newsletter_follows f JOIN newsletter_subscribers s ON s.id = f.subscriber_id WHERE s.user_id = $1 AND f.kind = 'author'`,
      [fan.id],
    );
    expect(mine[0].followId).toBe(authorFollow.id); // the most specific follow is the one its unsubscribe removes
    expect(recipients.map((r) => r.email)).not.toContain(suppressed.email);
    expect(recipients.map((r) => r.email)).not.toContain(author.email);
    expect(new Set(recipients.map((r) => r.subscriberId)).size).toBe(recipients.length);
  });

  it('one-click unsubscribe: POST List-Unsubscribe=One-Click with no cookie and no Origin removes ONLY that follow; GET changes nothing; tampered is 400', async () => {
    const fan = await createReader(t);
    await t.http.put(api('/newsletter/follows/publication/0')).set(fan.auth).expect(200);
    const { id: followId } = (
      await t.http
        .put(api(`/newsletter/follows/author/${author.id}`))
        .set(fan.auth)
        .expect(200)
    ).body.data;
    const links = t.app.get(NewsletterLinks);
    const url = new URL(links.unsubscribeUrl(followId));
    expect(url.pathname).toBe('/newsletter/unsubscribe');
    const token = url.searchParams.get('token')!;
    expect(links.newsletterUnsubscribeMailto(followId)).toBe(
      `mailto:no-reply@localhost?subject=${encodeURIComponent(`unsubscribe ${token}`)}`,
    );

    const preview = await t.http.get(api(`/newsletter/unsubscribe?token=${token}`)).expect(200);
    expect(preview.body.data).toEqual({ scope: 'follow', description: `new posts by ${author.fullName}`, unsubscribed: false });
    const subscriberId = (await subscriberOf(fan.email)).id;
    expect(await followsOf(subscriberId)).toHaveLength(2);

    const done = await t.http
      .post(api(`/newsletter/unsubscribe?token=${token}`))
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(done.body).toMatchObject({ message: 'You have been unsubscribed', data: { unsubscribed: true } });
    expect(await followsOf(subscriberId)).toEqual(['publication:0']);
    expect((await subscriberOf(fan.email)).status).toBe('active');
    await t.http
      .post(api(`/newsletter/unsubscribe?token=${token}`))
      .type('form')
      .send('List-Unsubscribe=One-Click')
      .expect(200);

    const forged = `u.${followId + 1}.${token.split('.')[2]}`;
    await t.http.post(api(`/newsletter/unsubscribe?token=${forged}`)).expect(400);
    await t.http.post(api(`/newsletter/unsubscribe?token=${token.slice(0, -1)}x`)).expect(400);
    await t.http.post(api('/newsletter/unsubscribe')).expect(400);
    // A preferences token is not an unsubscribe token.
    await t.http.post(api(`/newsletter/unsubscribe?token=${links.preferencesToken(subscriberId)}`)).expect(400);

    // The digest's token: every follow goes.
    await t.http.post(api(`/newsletter/unsubscribe?token=${links.unsubscribeAllToken(subscriberId)}`)).expect(200);
    expect(await followsOf(subscriberId)).toEqual([]);
    expect((await subscriberOf(fan.email)).status).toBe('unsubscribed');
  });

  it('the preferences page by its signed link: list, switch to a weekly digest, remove a follow, unsubscribe from all; a tampered token is 400', async () => {
    const fan = await createReader(t);
    await t.http.put(api('/newsletter/follows/publication/0')).set(fan.auth).expect(200);
    await t.http
      .put(api(`/newsletter/follows/tag/${tagId}`))
      .set(fan.auth)
      .expect(200);
    const subscriberId = (await subscriberOf(fan.email)).id;
    const url = new URL(t.app.get(NewsletterLinks).preferencesUrl(subscriberId));
    expect(url.origin + url.pathname).toBe('http://localhost:3000/newsletter/preferences');
    const token = url.searchParams.get('token')!;
    const prefs = (await t.http.get(api(`/newsletter/preferences?token=${token}`)).expect(200)).body.data;
    expect(prefs).toMatchObject({ email: fan.email, status: 'active', cadence: 'instant', digestWeekday: null });
    expect(prefs.follows).toHaveLength(2);

    const tampered = `p.${subscriberId + 1}.${token.split('.')[2]}`;
    expect((await t.http.get(api(`/newsletter/preferences?token=${tampered}`)).expect(400)).body).toEqual(
      err(400, 'This link is not valid. Open the latest link from your e-mail.'),
    );
    await t.http
      .put(api(`/newsletter/preferences?token=${tampered}`))
      .send({ cadence: 'instant' })
      .expect(400);

    await t.http
      .put(api(`/newsletter/preferences?token=${token}`))
      .send({ cadence: 'weekly' })
      .expect(400);
    await t.http
      .put(api(`/newsletter/preferences?token=${token}`))
      .send({ cadence: 'weekly', digestWeekday: 7 })
      .expect(400);
    const weekly = await t.http
      .put(api(`/newsletter/preferences?token=${token}`))
      .send({ cadence: 'weekly', digestWeekday: 5 })
      .expect(200);
    expect(weekly.body.data).toMatchObject({ cadence: 'weekly', digestWeekday: 5 });
    // Weekly: no longer an instant recipient.
    expect((await t.app.get(SubscriptionsService).recipientsForPost(1, author.id, [tagId])).map((r) => r.email)).not.toContain(fan.email);

    const tagFollow = prefs.follows.find((f: { kind: string }) => f.kind === 'tag');
    const other = await createReader(t);
    const otherFollow = (await t.http.put(api('/newsletter/follows/publication/0')).set(other.auth).expect(200)).body.data;
    await t.http.delete(api(`/newsletter/preferences/follows/${otherFollow.id}?token=${token}`)).expect(404); // another's follow
    const removed = await t.http.delete(api(`/newsletter/preferences/follows/${tagFollow.id}?token=${token}`)).expect(200);
    expect(removed.body.data.follows.map((f: { kind: string }) => f.kind)).toEqual(['publication']);
    const all = await t.http.post(api(`/newsletter/preferences/unsubscribe-all?token=${token}`)).expect(200);
    expect(all.body.data).toMatchObject({ status: 'unsubscribed', follows: [] });
    // Following again from the account makes it active again.
    await t.http.put(api('/newsletter/follows/publication/0')).set(fan.auth).expect(200);
    expect((await subscriberOf(fan.email)).status).toBe('active');
  });

  describe('back-office', () => {
    const importCsv = (csv: string, dryRun?: boolean) =>
      t.http
        .post(api('/newsletter/admin/subscribers/import'))
        .set(admin.auth)
        .send({ csv, ...(dryRun === undefined ? {} : { dryRun }) });

    it('CSV import is all or nothing: bad rows are reported by line and nothing is written', async () => {
      const good = visitorEmail();
      const csv = [
        'email,name,follows',
        `${good},Good Row,publication`,
        'not-an-email,Bad Address,',
        `${visitorEmail()},Unknown Tag,tag:no-such-tag-${uid()}`,
        `${good},Twice,`,
        `${visitorEmail()},Bad Follow,planet:1`,
      ].join('\n');
      const res = await importCsv(csv).expect(400);
      expect(res.body.message).toBe('4 rows have errors: nothing was imported');
      expect(Object.keys(res.body.errors)).toEqual(['line 3', 'line 4', 'line 5', 'line 6']);
      expect(res.body.errors['line 3'][0]).toContain('not a valid e-mail address');
      expect(res.body.errors['line 5'][0]).toContain('the same address as line 2');
      expect(await subscriberOf(good)).toBeUndefined();
      await importCsv('name\nNo email column').expect(400);
      await importCsv('').expect(400);
    });

    it("imports Inkwell's, Ghost's and Substack's formats (active, following, no e-mail sent), then exports them", async () => {
      const since = mail.messages.length;
      const [a, b, ghostIn, ghostOut, subIn, subOut] = Array.from({ length: 6 }, visitorEmail);
      const own = await importCsv(
        `email,name,follows\n${a},Anh Nguyen,"publication; author:${author.slug}; tag:${tagSlug}"\n${b},,\n`,
      ).expect(200);
      expect(own.body.data).toMatchObject({ format: 'inkwell', applied: true, rows: 2, created: 2, updated: 0, skipped: [] });
      const rowA = await subscriberOf(a);
      expect(rowA).toMatchObject({ status: 'active', source: 'import' });
      expect(await followsOf(rowA.id)).toEqual([`author:${author.id}`, 'publication:0', `tag:${tagId}`]);
      expect(await followsOf((await subscriberOf(b)).id)).toEqual(['publication:0']);

      const ghost =
        'id,email,name,note,subscribed_to_emails,complimentary_plan,stripe_customer_id,created_at,deleted_at,labels,tiers\n' +
        `6321,${ghostIn},Ghost Reader,,true,false,,2024-01-02T03:04:05.000Z,,"vip, early",\n` +
        `6322,${ghostOut},Gone Reader,,false,false,,2024-01-02T03:04:05.000Z,,,\n`;
      const dry = await importCsv(ghost, true).expect(200);
      expect(dry.body.data).toMatchObject({ format: 'ghost', applied: false, created: 1, skipped: [{ line: 3, email: ghostOut }] });
      expect(await subscriberOf(ghostIn)).toBeUndefined();
      await importCsv(ghost).expect(200);
      expect(await subscriberOf(ghostIn)).toMatchObject({ status: 'active', source: 'import' });
      expect(await subscriberOf(ghostOut)).toBeUndefined();

      const substack =
        'email,active_subscription,expiry,plan,email_disabled,created_at,first_payment_at\n' +
        `${subIn},true,,other,false,2023-05-06T07:08:09.000Z,\n` +
        `${subOut},true,,other,true,2023-05-06T07:08:09.000Z,\n` +
        `${a},true,,yearly,false,2023-05-06T07:08:09.000Z,2023-05-06T07:08:09.000Z\n`;
      const sub = await importCsv(substack).expect(200);
      expect(sub.body.data).toMatchObject({ format: 'substack', created: 1, updated: 1, skipped: [{ line: 3, email: subOut }] });
      expect(await followsOf((await subscriberOf(subIn)).id)).toEqual(['publication:0']);

      // No confirmation (nor any other e-mail) for imported addresses.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(mail.messages.slice(since).filter((m) => [a, b, ghostIn, subIn].some((e) => m.to.includes(e)))).toEqual([]);

      const exported = await t.http.get(api('/newsletter/admin/subscribers/export')).set(admin.auth).expect(200);
      expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(exported.text.split('\r\n')[0]).toBe(
        'email,name,follows,status,cadence,digest_weekday,source,created_at,confirmed_at,suppressed',
      );
      const line = exported.text.split('\r\n').find((l) => l.startsWith(`${a},`))!;
      expect(line).toContain(`Anh Nguyen,publication; author:${author.slug}; tag:${tagSlug},active,instant,,import,`);
      // The export imports again as it is (every address is already there: updated).
      const back = await importCsv(exported.text, true).expect(200);
      expect(back.body.data.created).toBe(0);
    });

    it('lists, filters, removes; the suppression list with reasons; counts; admins only', async () => {
      const email = visitorEmail();
      await importCsv(`email,name,follows\n${email},Filter Me,tag:${tagSlug}\n`).expect(200);
      const found = await t.http
        .get(api(`/newsletter/admin/subscribers?search=${encodeURIComponent(email)}`))
        .set(admin.auth)
        .expect(200);
      expect(found.body.data).toMatchObject({
        totalElements: 1,
        currentPage: 0,
        content: [{ email, name: 'Filter Me', status: 'active', suppressed: null }],
      });
      const byTag = await t.http
        .get(api(`/newsletter/admin/subscribers?follow=tag:${tagId}&status=active&size=100`))
        .set(admin.auth)
        .expect(200);
      expect(byTag.body.data.content.map((s: { email: string }) => s.email)).toContain(email);
      await t.http.get(api('/newsletter/admin/subscribers?follow=planet:1')).set(admin.auth).expect(400);
      await t.http.get(api('/newsletter/admin/subscribers?status=gone')).set(admin.auth).expect(400);

      await t.http
        .post(api('/newsletter/admin/suppressions'))
        .set(admin.auth)
        .send({ email: email.toUpperCase(), detail: 'asked by phone' })
        .expect(200);
      const listed = await t.http
        .get(api(`/newsletter/admin/suppressions?search=${encodeURIComponent(email)}`))
        .set(admin.auth)
        .expect(200);
      expect(listed.body.data.content).toEqual([{ email, reason: 'manual', detail: 'asked by phone', createdAt: expect.any(String) }]);
      const flagged = await t.http
        .get(api(`/newsletter/admin/subscribers?search=${encodeURIComponent(email)}`))
        .set(admin.auth)
        .expect(200);
      expect(flagged.body.data.content[0].suppressed).toBe('manual');
      await t.http
        .delete(api(`/newsletter/admin/suppressions?email=${encodeURIComponent(email)}`))
        .set(admin.auth)
        .expect(200);
      await t.http
        .delete(api(`/newsletter/admin/suppressions?email=${encodeURIComponent(email)}`))
        .set(admin.auth)
        .expect(404);

      const counts = (await t.http.get(api('/newsletter/admin/counts')).set(admin.auth).expect(200)).body.data;
      expect(counts.tags.find((c: { id: number }) => c.id === tagId).count).toBeGreaterThanOrEqual(1);
      expect(counts.authors.find((c: { id: number }) => c.id === author.id).count).toBeGreaterThanOrEqual(1);

      const id = found.body.data.content[0].id;
      await t.http
        .delete(api(`/newsletter/admin/subscribers/${id}`))
        .set(reader.auth)
        .expect(403);
      await t.http.get(api('/newsletter/admin/subscribers')).set(author.auth).expect(403);
      await t.http.get(api('/newsletter/admin/subscribers')).expect(401);
      await t.http
        .delete(api(`/newsletter/admin/subscribers/${id}`))
        .set(admin.auth)
        .expect(200);
      await t.http
        .delete(api(`/newsletter/admin/subscribers/${id}`))
        .set(admin.auth)
        .expect(404);
      expect(await subscriberOf(email)).toBeUndefined();
    });
  });

  it("an account's data export holds its subscriber row and follows; erasure removes them, and others' follows of an erased author", async () => {
    const gone = await createAuthor(t);
    const fan = await createReader(t);
    await t.http
      .put(api(`/newsletter/follows/author/${gone.id}`))
      .set(fan.auth)
      .expect(200);
    await t.http.put(api('/newsletter/follows/publication/0')).set(gone.auth).expect(200);
    const data = await t.app.get(NewsletterAccountDataService).exportOf(gone.id);
    expect(data).toMatchObject({
      subscriber: { email: gone.email, status: 'active', source: 'account' },
      follows: [{ kind: 'publication' }],
      deliveries: [],
    });

    await db.transaction((manager) => t.app.get(NewsletterAccountDataService).removeAllOf(manager, gone.id));
    expect(await subscriberOf(gone.email)).toBeUndefined();
    expect(await followsOf((await subscriberOf(fan.email)).id)).toEqual([]);
    expect(await t.app.get(NewsletterAccountDataService).exportOf(gone.id)).toEqual({
      subscriber: null,
      follows: [],
      deliveries: [],
      digests: [],
    });
  });
});

describe('Newsletter: the visitor form is rate-limited', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: true });
  });
  afterAll(() => t?.close());

  it('takes 5 requests a minute per client address, then 429 (whatever the addresses)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await t.http
        .post(api('/newsletter/subscribe'))
        .send({ email: `limited-${uid()}@example.com`, kind: 'publication', targetId: 0 });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
  });
});
