// What the newsletter benchmark (scripts/bench-newsletter.mjs) and the chaos scenario
// (scripts/chaos.mjs) share: an SMTP sink that accepts everything and counts each message by its
// Message-ID (no bodies kept: 100,000 e-mails must not fill the script's memory), SQL access to a
// DATA_DIR's embedded PostgreSQL, and subscribers seeded by SQL.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

/**
 * An SMTP server on loopback accepting every message. `counts`: Message-ID → copies received;
 * `received`: all messages; `lastAt`: when the last one arrived (ms); `recipients`: address → copies.
 */
export async function startCountingSink() {
  const sink = { counts: new Map(), recipients: new Map(), received: 0, firstAt: 0, lastAt: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 0,
    onData(stream, session, callback) {
      let head = '';
      let done = false;
      stream.on('data', (chunk) => {
        if (done) return;
        head += chunk.toString('latin1');
        if (/\r?\n\r?\n/.test(head) || head.length > 64_000) done = true;
      });
      stream.on('end', () => {
        const headers = head.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
        const id = /^message-id:\s*(.+)$/im.exec(headers)?.[1]?.trim() ?? `(none ${sink.received})`;
        sink.counts.set(id, (sink.counts.get(id) ?? 0) + 1);
        for (const to of session.envelope.rcptTo) sink.recipients.set(to.address, (sink.recipients.get(to.address) ?? 0) + 1);
        sink.received += 1;
        sink.lastAt = Date.now();
        sink.firstAt ||= sink.lastAt;
        callback();
      });
    },
  });
  // A killed sender drops its connections mid-message (ECONNRESET): nothing to count, nothing to stop for.
  server.on('error', () => undefined);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.url = `smtp://127.0.0.1:${server.server.address().port}`;
  /** Message-IDs received more than once, and the extra copies. */
  sink.duplicates = () => {
    let ids = 0;
    let copies = 0;
    for (const count of sink.counts.values())
      if (count > 1) {
        ids += 1;
        copies += count - 1;
      }
    return { ids, copies };
  };
  sink.close = () => new Promise((resolve) => server.close(resolve));
  return sink;
}

/** A pg client on a DATA_DIR's embedded PostgreSQL (its port from postmaster.pid, its password from secrets.json). */
export async function connectDataDir(dataDir) {
  const port = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const password = JSON.parse(readFileSync(join(dataDir, 'secrets.json'), 'utf8')).postgresPassword;
  const client = new pg.Client({ connectionString: `postgres://inkwell:${encodeURIComponent(password)}@127.0.0.1:${port}/inkwell` });
  await client.connect();
  return client;
}

/**
 * `count` active, confirmed subscribers `<prefix>-<n>@sink.test` (instant cadence), each following
 * what `follows` lists: `{ kind: 'publication' | 'author' | 'tag', targetId }`. One statement each.
 */
export async function seedSubscribers(client, { prefix, count, follows }) {
  const { rows } = await client.query(
    `INSERT INTO newsletter_subscribers (email, status, source, cadence, confirmed_at)
     SELECT $1 || '-' || n || '@sink.test', 'active', 'import', 'instant', now() FROM generate_series(1, $2::int) n
     ON CONFLICT (email) DO NOTHING RETURNING id`,
    [prefix, count],
  );
  for (const follow of follows)
    await client.query(
      `INSERT INTO newsletter_follows (subscriber_id, kind, target_id) SELECT id, $2, $3 FROM newsletter_subscribers WHERE email LIKE $1 || '-%@sink.test'
       ON CONFLICT DO NOTHING`,
      [prefix, follow.kind, follow.targetId],
    );
  return rows.length;
}

/** A post's deliveries by state ({ sent: 99999, queued: 1 }). */
export async function deliveryStates(client, postId) {
  const { rows } = await client.query(`SELECT state, count(*)::int AS n FROM newsletter_deliveries WHERE post_id = $1 GROUP BY state`, [
    postId,
  ]);
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}
