// The notifications phase of `npm run bench`, on the seeded demo data:
// - reader-3 gets replies until they hold 10,000 notifications (1,000 with BENCH_SMALL;
//   BENCH_NOTIFICATIONS=N sets it), sent through the API by eight other readers to one comment of theirs (a
//   busy thread); the last QUEUE_BURST of them measure the queue: every reply queues an e-mail
//   (replies are e-mailed by default), and the server's SMTP_URL is a local capture
//   (scripts/mail-capture.mjs): e-mails received per second, first to last;
// - rows: reader-3's notification list page 0 and unread count; a comment create that notifies
//   nobody (author-1 on their own post: today's comment create), and a reply to the busy thread
//   (a notification and its e-mail job in the comment's transaction), in the same run.
import { startMailCapture } from '../mail-capture.mjs';

const NOTIFIED_READER = 'reader-3@demo.inkwell.test';
const REPLIERS = [4, 5, 6, 7, 8, 9, 10, 11].map((n) => `reader-${n}@demo.inkwell.test`);
const AUTHOR = 'author-1@demo.inkwell.test';
const SEND_CONCURRENCY = 16;

/**
 * The phase for bench.mjs's PHASES. `helpers`: { signIn(base, email), getJson(url, headers), log, small }.
 * Its server sends e-mail to a capture started here (stopped with `stop()`).
 */
export async function notificationsPhase({ signIn, getJson, log, small }) {
  const capture = await startMailCapture();
  // BENCH_NOTIFICATIONS=N: another count (e.g. 10,000 on a BENCH_SMALL data set).
  const wanted = Number(process.env.BENCH_NOTIFICATIONS || (small ? 1_000 : 10_000));
  const burst = small ? 300 : 1_000;
  const figures = {};

  async function post(base, path, token, body) {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await response.json().catch(() => undefined);
    if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${json?.message ?? ''}`);
    return json.data;
  }

  /** `count` replies to `parentId`, SEND_CONCURRENCY at a time, round-robin over the repliers. */
  async function reply(base, postId, parentId, tokens, count, label) {
    let next = 0;
    await Promise.all(
      Array.from({ length: SEND_CONCURRENCY }, async (_, w) => {
        while (next < count) {
          const n = next++;
          await post(base, '/api/v1/comments', tokens[(n + w) % tokens.length], {
            postId,
            parentId,
            content: `${label} ${n} ${Date.now()}`,
          });
        }
      }),
    );
  }

  async function routes(base, firstPage) {
    const reader = await signIn(base, NOTIFIED_READER);
    const asReader = { authorization: `Bearer ${reader}` };
    const tokens = await Promise.all(REPLIERS.map((email) => signIn(base, email)));
    const postId = firstPage.content[0].id;
    const parent = await post(base, '/api/v1/comments', reader, { postId, content: `Bench: a busy thread ${Date.now()}` });
    const have = (await getJson(`${base}/api/v1/notifications?page=0&size=1`, asReader)).totalElements;
    const fill = Math.max(0, wanted - burst - have);
    if (fill) {
      log(`notifications: ${NOTIFIED_READER} has ${have}; ${fill} replies to reach ${wanted - burst} before the queue burst`);
      await reply(base, postId, parent.id, tokens, fill, 'Bench fill');
    }
    // The queue burst: its e-mails, counted in the capture from the first to the last.
    const before = capture.messages.length;
    const started = Date.now();
    await reply(base, postId, parent.id, tokens, burst, 'Bench burst');
    const repliedIn = (Date.now() - started) / 1000;
    const deadline = Date.now() + 300_000;
    while (capture.messages.length - before < burst && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    const received = capture.messages.slice(before);
    const first = Date.parse(received[0]?.receivedAt ?? new Date().toISOString());
    const last = Date.parse(received.at(-1)?.receivedAt ?? new Date().toISOString());
    figures.queue = {
      mails: received.length,
      wanted: burst,
      seconds: Math.max(0.001, (last - first) / 1000),
      repliedIn,
      sinceStart: (last - started) / 1000,
    };
    log(
      `notifications: ${received.length} of ${burst} e-mails in ${figures.queue.seconds.toFixed(1)} s (replies sent in ${repliedIn.toFixed(1)} s)`,
    );
    const total = (await getJson(`${base}/api/v1/notifications?page=0&size=1`, asReader)).totalElements;
    log(`notifications: ${NOTIFIED_READER} now has ${total} notifications`);

    // Today's comment create: author-1 on their own published post notifies nobody.
    const author = await signIn(base, AUTHOR);
    const mine = await getJson(`${base}/api/v1/blog/posts/author/my-posts?page=0&size=1&status=PUBLISHED`, {
      authorization: `Bearer ${author}`,
    });
    const ownPost = mine.content[0]?.id;
    if (!ownPost) throw new Error(`${AUTHOR} has no published post: reseed`);
    const json = { 'content-type': 'application/json' };
    return [
      [`API notifications page=0 (${total})`, '/api/v1/notifications?page=0&size=10', { headers: asReader }, 'notifications0'],
      ['API notifications unread-count', '/api/v1/notifications/unread-count', { headers: asReader }, 'notificationsUnread'],
      [
        'API comment create (notifies nobody)',
        '/api/v1/comments',
        {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${author}` },
          body: JSON.stringify({ postId: ownPost, content: 'Bench comment [<id>]' }),
        },
        'commentCreate',
      ],
      [
        'API reply to a busy thread (notified)',
        '/api/v1/comments',
        {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${tokens[0]}` },
          body: JSON.stringify({ postId, parentId: parent.id, content: 'Bench reply [<id>]' }),
        },
        'replyBusy',
      ],
    ];
  }

  return {
    phase: { name: 'notifications', env: { SMTP_URL: capture.smtpUrl }, routes },
    /** Targets for bench.mjs's table: [name, rows it needs, pass, detail]. */
    targets(find, ratio, percent) {
      const row = (key) => find('notifications', key);
      return [
        ['API notification list page 0 (10,000) >= 5 % of ceiling', [row('notifications0')], (r) => ratio(r) >= 0.05, percent],
        ['API notification unread count >= 10 % of ceiling', [row('notificationsUnread')], (r) => ratio(r) >= 0.1, percent],
        [
          'API reply to a busy thread >= 80 % of comment create',
          [row('replyBusy'), row('commentCreate')],
          (reply, create) => reply.rps >= 0.8 * create.rps,
          (reply, create) =>
            `${reply.rps.toFixed(0)} vs ${create.rps.toFixed(0)} req/s (${((reply.rps / Math.max(create.rps, 1)) * 100).toFixed(0)} %)`,
        ],
        [
          'queue throughput (e-mails/s to a local SMTP capture)',
          [figures.queue],
          (q) => q.mails === q.wanted,
          (q) =>
            `${(q.mails / q.seconds).toFixed(0)} e-mails/s (${q.mails} of ${q.wanted} in ${q.seconds.toFixed(1)} s; the replies took ${q.repliedIn.toFixed(1)} s)`,
        ],
      ];
    },
    stop: () => capture.stop(),
  };
}
