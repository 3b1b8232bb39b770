import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { PROJECT_ROOT } from '../src/config/paths';
import { createDataSource, ensureDatabase } from '../src/database/data-source';
import { liveDataDirOwner } from '../src/database/data-dir-lock';
import { freeLoopbackPort, runningEmbeddedPostgres } from '../src/database/embedded-postgres';
import { isAlive, sleep } from '../src/database/processes';

/**
 * `npm start` as a person runs it: in a terminal (a pseudo-terminal from util-linux's `script`),
 * on a fresh DATA_DIR, without SMTP. Then `npm run seed:demo` while that server holds DATA_DIR.
 * start.mjs builds what is stale first (CI builds before the tests, so this is quick there).
 */
const START_TIMEOUT_MS = 240_000;
const RULE = '─'.repeat(64);

/** Everything the process printed to its terminal, newlines as written (the pty adds \r). */
class TerminalOutput {
  text = '';
  append(chunk: Buffer): void {
    this.text += chunk.toString('utf8').replace(/\r/g, '');
  }
}

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  alive: () => boolean,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (!alive()) throw new Error(`the server exited before ${what}`);
    if (Date.now() - started > timeoutMs) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await sleep(200);
  }
}

function runSeed(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['-r', '@swc-node/register', 'backend/src/bin/seed-demo.ts', ...args], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => done({ code, output }));
  });
}

describe('First run in a terminal, and seed:demo beside the running server', () => {
  let tempDir: string;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let baseUrl: string;
  let terminal: ChildProcess;
  let exited = false;
  const output = new TerminalOutput();
  let serverPid: number | undefined;

  beforeAll(async () => {
    tempDir = mkdtempSync(join(tmpdir(), 'inkwell-first-run-'));
    chmodSync(tempDir, 0o755); // the postgres OS user (when run as root) must traverse it
    dataDir = join(tempDir, 'data');
    const port = await freeLoopbackPort();
    baseUrl = `http://localhost:${port}`;
    env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, THROTTLE_DISABLED: '1' };
    // A first start as a newcomer makes it: no administrator, SMTP, external services or log level of the caller's.
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'SMTP_URL',
      'JWT_SECRET',
      'ADMIN_EMAIL',
      'ADMIN_PASSWORD',
      'PUBLIC_URL',
      'LOG_LEVEL',
      'PAGE_CACHE',
      'STORAGE',
      'S3_BUCKET',
      'NODE_ENV',
      'TEST_DATABASE_URL',
    ])
      delete env[name];
    // script -q (quiet) -e (its exit code is the command's) -f (flush at once) -c command, no typescript file.
    terminal = spawn('script', ['-qefc', `exec "${process.execPath}" scripts/start.mjs`, '/dev/null'], {
      cwd: PROJECT_ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    terminal.stdout!.on('data', (chunk: Buffer) => output.append(chunk));
    terminal.stderr!.on('data', (chunk: Buffer) => output.append(chunk));
    terminal.on('exit', () => (exited = true));
    await until(
      'start-up summary',
      () => (/Ctrl-C stops it\.\n─+\n/.test(output.text) ? true : undefined),
      START_TIMEOUT_MS,
      () => !exited,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; output so far:\n${output.text.slice(-4000)}`);
    });
    serverPid = liveDataDirOwner(dataDir)?.pid;
  }, START_TIMEOUT_MS + 10_000);

  afterAll(async () => {
    // Ctrl-C as the person would (SIGINT to the server): it stops PostgreSQL on the way out.
    if (serverPid && isAlive(serverPid)) {
      process.kill(serverPid, 'SIGINT');
      await until(
        'exit',
        () => (exited ? true : undefined),
        60_000,
        () => true,
      ).catch(() => process.kill(serverPid!, 'SIGKILL'));
    }
    terminal?.kill('SIGKILL');
    rmSync(tempDir, { recursive: true, force: true });
  }, 90_000);

  it('ends the start-up with a short summary: URL, the new administrator and a password that signs in, where mail goes', async () => {
    // The health check is never logged: once it answers, start-up is over and nothing may follow the summary.
    await until(
      'health',
      async () => ((await fetch(`${baseUrl}/api/v1/health`).catch(() => undefined))?.status === 200 ? true : undefined),
      30_000,
      () => !exited,
    );
    // The terminal's output reaches this process a moment after the server wrote it.
    const summaryStart = `\n${RULE}\nInkwell is running at ${baseUrl}\n`;
    await until(
      'summary',
      () => (output.text.includes(summaryStart) && output.text.trimEnd().endsWith(RULE) ? true : undefined),
      10_000,
      () => !exited,
    );
    const text = output.text;
    const summaryAt = text.lastIndexOf(summaryStart);
    expect(summaryAt).toBeGreaterThan(0);
    const summary = text.slice(summaryAt);
    expect(summary.trimEnd().endsWith(RULE)).toBe(true);
    // The JSON start-up lines came before it (Nest's "successfully started" is the last of them).
    expect(text.slice(0, summaryAt)).toContain('Nest application successfully started');
    expect(summary).not.toContain('{"level"');
    expect(summary).toContain(`API docs:       ${baseUrl}/api/docs`);
    expect(summary).toContain('E-mails:        printed here, one line each (no SMTP_URL)');
    expect(summary).toContain(`Data:           ${dataDir} (embedded PostgreSQL)`);
    const admin = /Administrator: +(\S+@\S+) \/ (\S+)\n/.exec(summary);
    expect(admin?.[1]).toBe('admin@example.com');
    const login = await fetch(`${baseUrl}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin![1], password: admin![2] }),
    });
    expect(login.status).toBe(200);
  });

  it('prints each e-mail as one readable line whose code verifies the account', async () => {
    const email = 'first.reader@example.test';
    const password = 'Str0ng!Pass';
    const registered = await fetch(`${baseUrl}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fullName: 'First Reader', email, password, confirmPassword: password }),
    });
    expect(registered.status).toBe(201);
    const line = await until(
      'mail line',
      () =>
        new RegExp(`^E-mail to ${email.replace(/\./g, '\\.')}: "Your Inkwell verification code": code (\\d{6})$`, 'm').exec(output.text) ??
        undefined,
      10_000,
      () => !exited,
    );
    const verified = await fetch(`${baseUrl}/api/v1/auth/verify-email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, verificationCode: line[1] }),
    });
    expect(verified.status).toBe(200);
  });

  it('seed:demo writes into the running server database and the server drops its cached pages', async () => {
    // An anonymous /blog, rendered twice: the second comes from the page cache, which only a change notice empties.
    for (let i = 0; i < 2; i++) expect((await fetch(`${baseUrl}/blog`)).status).toBe(200);

    const seeded = await runSeed(env, ['--posts', '30', '--readers', '50', '--likes', '100', '--comments', '60']);
    expect({ code: seeded.code, output: seeded.output }).toEqual({
      code: 0,
      output: expect.stringContaining('belongs to the running Inkwell'),
    });
    expect(isAlive(serverPid!)).toBe(true);

    const running = runningEmbeddedPostgres(dataDir);
    expect(running?.serverPid).toBe(serverPid);
    const dataSource: DataSource = createDataSource(await ensureDatabase(running!.url, 'inkwell'));
    await dataSource.initialize();
    try {
      const [{ posts }] = (await dataSource.query(
        `SELECT count(*)::int AS posts FROM posts p JOIN users u ON u.id = p.author_id WHERE u.email LIKE '%@demo.inkwell.test'`,
      )) as { posts: number }[];
      expect(posts).toBe(30);
      const [{ title }] = (await dataSource.query(
        `SELECT title FROM posts WHERE status = 'PUBLISHED' ORDER BY published_at DESC, id DESC LIMIT 1`,
      )) as { title: string }[];
      const page = await (await fetch(`${baseUrl}/blog`)).text();
      expect(page).toContain(title);
      // seed:demo builds each document once with its search triggers off: the same document the triggers and the migration build, tags included.
      const [documents] = (await dataSource.query(
        `SELECT count(*)::int AS posts,
                count(*) FILTER (WHERE p.search_head = inkwell_post_head(p.title, p.summary, inkwell_post_tag_names(p.id))
                                   AND p.search_document = inkwell_post_body(p.content_html) || p.search_head)::int AS built
           FROM posts p JOIN users u ON u.id = p.author_id WHERE u.email LIKE '%@demo.inkwell.test'`,
      )) as { posts: number; built: number }[];
      expect(documents).toEqual({ posts: 30, built: 30 });
      const [{ enabled }] = (await dataSource.query(
        `SELECT count(*)::int AS enabled FROM pg_trigger WHERE tgname IN ('TRG_posts_search_document', 'TRG_post_tags_search_insert') AND tgenabled = 'O'`,
      )) as { enabled: number }[];
      expect(enabled).toBe(2);
    } finally {
      await dataSource.destroy();
    }
  }, 120_000);
});
