import { Controller, Get, Module } from '@nestjs/common';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { Public } from '../src/common/decorators/public.decorator';
import { createDataSource, ensureDatabase } from '../src/database/data-source';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../src/database/embedded-postgres';
import { isAlive, sleep } from '../src/database/processes';
import { DrainGate, stopGracefully } from '../src/shutdown';
import { createTestApp, TestApp } from './helpers/app';
import { createAuthor } from './helpers/users';

const UNAVAILABLE = 'Service temporarily unavailable. Please try again later.';

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-faults-'));
  chmodSync(dir, 0o755); // the postgres OS user (when run as root) must traverse it
  return dir;
}

/** A PostgreSQL of the test's own (it gets stopped and killed), with a migrated database. */
async function startOwnDatabase(dataDir: string, name: string): Promise<{ database: EmbeddedDatabase; url: string }> {
  const database = await startEmbeddedPostgres(dataDir, () => undefined);
  const url = await ensureDatabase(database.url, name);
  const migrate = createDataSource(url);
  await migrate.initialize();
  await migrate.runMigrations();
  await migrate.destroy();
  return { database, url };
}

/** The process group of a pid (/proc/<pid>/stat field 5). */
function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return { value, ms: Date.now() - started };
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** A request that holds a database connection for a while (an upload being processed, say). */
@Controller('probe')
class SlowProbeController {
  constructor(private readonly dataSource: DataSource) {}

  @Get('slow')
  @Public()
  async slow() {
    const [row] = (await this.dataSource.query('SELECT pg_sleep(3), 42 AS answer')) as { answer: number }[];
    return { answer: row.answer };
  }
}
@Module({ controllers: [SlowProbeController] })
class SlowProbeModule {}

describe('The embedded PostgreSQL under faults', () => {
  let dataDir: string;
  let database: EmbeddedDatabase;
  let databaseUrl: string;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = newDataDir();
    ({ database, url: databaseUrl } = await startOwnDatabase(dataDir, 'inkwell_faults'));
    t = await createTestApp({ databaseUrl, extraModules: [SlowProbeModule] });
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await database?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the postmaster in its own process group, so a signal to ours never reaches it', () => {
    const pid = database.postmaster.pid!;
    expect(processGroupOf(pid)).toBe(pid);
    expect(processGroupOf(pid)).not.toBe(processGroupOf(process.pid));
  });

  it('answers 503 with Retry-After (never 500, never a hang) while the database is down, and recovers when it is back', async () => {
    const author = await createAuthor(t);
    await t.http.get('/api/v1/blog/posts/author/my-posts').set(author.auth).expect(200);

    await database.postmaster.stop(); // a stop by hand is not restarted: the database is simply away
    const calls = [
      () => t.http.get('/api/v1/health'),
      () => t.http.get('/api/v1/blog/posts/public?page=7'),
      () => t.http.get('/api/v1/blog/tags?search=x'),
      () => t.http.get('/api/v1/blog/posts/author/my-posts').set(author.auth),
      () => t.http.get('/api/v1/users/profile').set(author.auth),
      () => t.http.post('/api/v1/auth/login').send({ email: author.email, password: 'Whatever-1!' }),
      () => t.http.put('/api/v1/users/profile').set(author.auth).send({ bio: 'written while the database is down' }),
    ];
    for (const [i, call] of calls.entries()) {
      // A hang would show as the test's timeout; the 3 s bound itself is measured by `npm run chaos`.
      const res = await call();
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      // Health names what is missing ('Database unavailable'); every other endpoint says the spec's text.
      if (i > 0) expect(res.body).toMatchObject({ success: false, data: null, status: 503, message: UNAVAILABLE });
    }

    // The server comes back (as an external DATABASE_URL server would): the pool reconnects by itself.
    await database.postmaster.start();
    await until(async () => ((await t.http.get('/api/v1/health')).status === 200 ? true : undefined), 45_000);
    const profile = await t.http.get('/api/v1/users/profile').set(author.auth).expect(200);
    expect(profile.body.data.bio).not.toBe('written while the database is down');
  }, 60_000);

  // The 10 s target is measured by `npm run chaos`; here the restart must happen, load or not.
  it('restarts a postmaster killed with -9, with no app restart', async () => {
    const before = database.postmaster.pid!;
    const restarts = database.postmaster.restarts;
    process.kill(before, 'SIGKILL');
    // An idle pooled backend can still answer for a moment after its postmaster died: wait for
    // the supervisor to have started a new one before asking health.
    await until(async () => (database.postmaster.restarts > restarts ? true : undefined), 45_000);
    await until(async () => ((await t.http.get('/api/v1/health')).status === 200 ? true : undefined), 45_000);
    expect(database.postmaster.restarts).toBe(restarts + 1);
    expect(database.postmaster.pid).not.toBe(before);
    await t.http.get('/api/v1/blog/tags').expect(200);
  }, 60_000);

  it('stops in order: new connections are refused at once, requests in flight finish with the database, then PostgreSQL stops', async () => {
    const own = newDataDir();
    const { database: db, url } = await startOwnDatabase(own, 'inkwell_stop');
    const app = await createTestApp({ databaseUrl: url, extraModules: [SlowProbeModule] });
    let stopped = false;
    try {
      const server = app.app.getHttpServer() as Server;
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      const gate = new DrainGate(server);
      const address = server.address() as { port: number };
      const base = `http://127.0.0.1:${address.port}`;

      const inFlight = Array.from({ length: 5 }, () =>
        fetch(`${base}/probe/slow`).then(async (r) => ({ status: r.status, body: (await r.json()) as { data: { answer: number } } })),
      );
      await until(async () => (gate.requestsInFlight === 5 ? true : undefined), 20_000);
      const said: string[] = [];
      const stopping = stopGracefully(gate, app.app, db, 25_000, (line) => said.push(line));
      await until(async () => (said.length ? true : undefined), 5_000);
      expect(said).toEqual(['no longer accepting connections; answering the 5 request(s) received']);
      // New connections are refused (the requests after the signal on kept-alive connections get
      // 503: shutdown.e2e-spec.ts).
      expect(
        await fetch(`${base}/api/v1/health`).then(
          (r) => r.status,
          (error: { cause?: { code?: string } }) => error.cause?.code,
        ),
      ).toBe('ECONNREFUSED');

      const answers = await Promise.all(inFlight);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers.every((a) => a.body.data.answer === 42)).toBe(true);
      const pid = db.postmaster.pid!;
      await stopping;
      stopped = true;
      expect(isAlive(pid)).toBe(false);
      expect(server.listening).toBe(false);
    } finally {
      if (!stopped) await app.app.close();
      await db.stop();
      rmSync(own, { recursive: true, force: true });
      rmSync(app.dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('DATA_DIR ownership and orphans', () => {
  let dataDir: string;
  let holder: ChildProcess | undefined;

  beforeEach(() => {
    dataDir = newDataDir();
  });
  afterEach(() => {
    holder?.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Another process that owns DATA_DIR (an Inkwell, as far as the lock is concerned). */
  async function holdDatabase(): Promise<{ child: ChildProcess; postmasterPid: number }> {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'helpers', 'hold-database.ts'), dataDir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    holder = child;
    let output = '';
    const line = await new Promise<string>((done, fail) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) done(output.trim());
      });
      child.on('exit', () => fail(new Error(`holder exited: ${output}`)));
    });
    const [word, pid] = line.split(' ');
    if (word !== 'ready') throw new Error(line);
    return { child, postmasterPid: Number(pid) };
  }

  it('refuses a second Inkwell on a DATA_DIR a live one owns, with the message it had', async () => {
    const { postmasterPid } = await holdDatabase();
    await expect(startEmbeddedPostgres(dataDir, () => undefined)).rejects.toThrow(/is another Inkwell using the same DATA_DIR\?/);
    expect(isAlive(postmasterPid)).toBe(true);
  }, 60_000);

  it('stops the orphan postmaster of an Inkwell killed with -9 and starts normally', async () => {
    const { child, postmasterPid } = await holdDatabase();
    child.kill('SIGKILL');
    await new Promise((done) => child.once('exit', done));
    await sleep(200);
    expect(isAlive(postmasterPid)).toBe(true); // the orphan: nobody stops it when Node dies

    const lines: string[] = [];
    const database = await startEmbeddedPostgres(dataDir, (line) => lines.push(line));
    try {
      expect(isAlive(postmasterPid)).toBe(false);
      expect(database.postmaster.pid).not.toBe(postmasterPid);
      expect(lines.join('\n')).toContain(`stopping the embedded PostgreSQL (pid ${postmasterPid}) left running`);
      const url = await ensureDatabase(database.url, 'inkwell_orphan');
      expect(url).toContain('/inkwell_orphan');
    } finally {
      await database.stop();
    }
  }, 60_000);
});

describe('A pooled connection the server ends while it is checked out', () => {
  // The pool listens for errors on idle clients only, and a query runner adds its listener a few
  // microtasks after the pool hands the client over. A FATAL message parsed in that window (it
  // came in the same packet as the ReadyForQuery that let the pool hand it over, as when the
  // postmaster stops) was an unhandled 'error' event: the whole process went down.
  it('fails the next statement on that client instead of crashing the process, and the pool connects again', async () => {
    const dataSource = createDataSource(process.env.DATABASE_URL!);
    await dataSource.initialize();
    try {
      const [client, release] = (await (dataSource.driver as PostgresDriver).obtainMasterConnection()) as [
        { query(text: string): Promise<{ rows: { pid: number }[] }> },
        (error?: Error) => void,
      ];
      const { rows } = await client.query('SELECT pg_backend_pid() AS pid');
      // What a postmaster stop sends every backend: FATAL 57P01 on a connection with no query running.
      await dataSource.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
      await until(
        async () =>
          (await dataSource.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [rows[0].pid])).length === 0 ? true : undefined,
        5_000,
      );
      await sleep(200); // the FATAL message reaches the client
      await expect(client.query('SELECT 1')).rejects.toThrow('not queryable');
      release();
      const answer = (await dataSource.query('SELECT 42 AS answer')) as { answer: number }[];
      expect(answer[0].answer).toBe(42);
    } finally {
      await dataSource.destroy();
    }
  });
});
