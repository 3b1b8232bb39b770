import { DataSource } from 'typeorm';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createFreshDatabase } from './helpers/fresh-database';
import { createAdmin, createReader, TestUser } from './helpers/users';

/**
 * Without SMTP_URL and with a person at the terminal, a notification e-mail is printed as one line
 *: its link and its unsubscribe link, which unsubscribes with one click (the RFC 8058
 * POST a mail provider sends: no Origin, form body). A database of its own: no other suite's app
 * works (or prints) this queue's jobs.
 */
jest.setTimeout(120_000);

describe('Notification e-mails printed to the terminal (no SMTP_URL)', () => {
  let t: TestApp;
  let db: DataSource;
  let admin: TestUser;
  const printed: string[] = [];
  let writeSpy: jest.SpyInstance;
  const ttyDescriptor = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');

  beforeAll(async () => {
    const databaseUrl = await createFreshDatabase('inkwell_mail_terminal');
    const write = process.stdout.write.bind(process.stdout);
    writeSpy = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
      const text = String(chunk);
      if (text.startsWith('E-mail to ')) {
        printed.push(text);
        return true;
      }
      return write(chunk, ...rest);
    }) as typeof process.stdout.write);
    // The mailer decides once, when it is built, whether stdout is a terminal.
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
    try {
      t = await createTestApp({ databaseUrl, env: { JOB_POLL_SECONDS: '1' } });
    } finally {
      if (ttyDescriptor) Object.defineProperty(process.stdout, 'isTTY', ttyDescriptor);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
    }
    db = t.app.get(DataSource);
    admin = await createAdmin(t);
  });
  afterAll(async () => {
    await t?.close();
    writeSpy?.mockRestore();
  });

  /** Polls until `read` answers something (the queue works in the background). */
  async function until<T>(read: () => Promise<T | undefined>, what: string, timeoutMs = 60_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not yet; printed: ${JSON.stringify(printed)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const deliveryStatuses = async (userId: number): Promise<string[]> =>
    (await db.query('SELECT status FROM notification_deliveries WHERE user_id = $1 ORDER BY id', [userId])).map(
      (row: { status: string }) => row.status,
    );

  async function comment(user: TestUser, postId: number, content: string, parentId?: number): Promise<number> {
    const res = await t.http.post(api('/comments')).set(user.auth).send({ postId, content, parentId });
    if (res.status !== 201) throw new Error(`comment failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id;
  }

  it('a reply e-mail prints its link and its unsubscribe link on one line; the unsubscribe link stops those e-mails in one click', async () => {
    const post = (
      await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `Printed ${uid()}`, content: 'Body', status: 'PUBLISHED' })
        .expect(201)
    ).body.data;
    const [reader, other] = [await createReader(t), await createReader(t)];
    const parent = await comment(reader, post.id, 'First!');
    const reply = await comment(other, post.id, 'Welcome aboard', parent);

    const line = await until(
      async () => printed.find((candidate) => candidate.startsWith(`E-mail to ${reader.email}:`)),
      'the printed e-mail',
    );
    await until(async () => ((await deliveryStatuses(reader.id)).join() === 'SENT' ? true : undefined), 'the delivery recorded SENT');
    const pattern = new RegExp(
      `^E-mail to ${reader.email.replace(/\./g, '\\.')}: "New reply to your comment": ` +
        `link http://localhost:3000/blog/${post.slug}#comment-${reply}; unsubscribe (http://localhost:3000/unsubscribe\\?token=\\S+)\\n$`,
    );
    expect(line).toMatch(pattern);
    const unsubscribeUrl = new URL(pattern.exec(line)![1]);
    expect(printed.filter((candidate) => candidate.startsWith(`E-mail to ${reader.email}:`))).toHaveLength(1);

    // The page at that link reads and posts through this API with the same token (frontend/src/pages/unsubscribe.astro).
    const apiPath = api(`/notifications${unsubscribeUrl.pathname}${unsubscribeUrl.search}`);
    expect((await t.http.get(apiPath).expect(200)).body.data).toEqual({
      scope: 'COMMENT_REPLY',
      description: 'e-mails about replies to your comments',
      unsubscribed: false,
    });
    const done = await t.http.post(apiPath).type('form').send('List-Unsubscribe=One-Click').expect(200);
    expect(done.body.data).toEqual({ scope: 'COMMENT_REPLY', description: 'e-mails about replies to your comments', unsubscribed: true });
    const preferences = (await t.http.get(api('/notifications/preferences')).set(reader.auth).expect(200)).body.data.events;
    expect(preferences.find((event: { type: string }) => event.type === 'COMMENT_REPLY')).toEqual({
      type: 'COMMENT_REPLY',
      inApp: true,
      email: false,
    });

    // A later reply is in the list, not in the mail: no second delivery for the reader.
    await comment(admin, post.id, 'Another reply', parent);
    expect(await deliveryStatuses(reader.id)).toEqual(['SENT']);
  });
});
