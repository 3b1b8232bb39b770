import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import request from 'supertest';
import { ITEM_TEXT_MAX } from '../src/imports/sources/wxr-reader';
import { createFreshDatabase } from './helpers/fresh-database';
import { WXR_TAIL, wxrHead, wxrItem } from './fixtures/wxr-builder';

/** A figure of /proc/<pid>/status in MB: VmRSS (resident now) or VmHWM (the peak since start or the last reset). */
const statusMb = (pid: number, field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** Starts VmHWM again from the resident size now (Linux: '5' to clear_refs), so the peak that follows is the import's own. */
const resetPeak = (pid: number): void => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/**
 * What the import may add to the server's resident memory at its peak. Holding the item once would
 * take 120 MB (240 MB as a JavaScript string). The process itself is larger here than under
 * `npm start`: it compiles the TypeScript sources as it loads them (@swc-node/register), which
 * puts it near 255 MB on Node 20 and 357 MB on Node 24 before any upload (peaks through the import:
 * 278 and 392 MB). So the test bounds what the import adds, which does not depend on how the
 * server was loaded; before the cap the process ran out of heap instead.
 */
const IMPORT_ADDS_AT_MOST_MB = 64;

/**
 * A hostile export: one post whose body is 120 MB (an export of that size once made the server run
 * out of heap about 80 s after answering 202). The server runs as `npm start` runs it (256 MB
 * heap) in a process of its own: the item is skipped with its reason, the posts around it arrive,
 * what the import adds to the process's peak memory stays small against the item, and it still answers.
 */
describe('Import of an oversized item', () => {
  const SITE = 'https://hostile.example.org';
  const BODY_MB = 120;
  let child: ChildProcess;
  let dataDir: string;
  let base: string;
  let token: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'inkwell-import-memory-'));
    const databaseUrl = await createFreshDatabase('inkwell_import_memory');
    child = spawn(
      process.execPath,
      ['--max-old-space-size=256', '-r', '@swc-node/register', join(__dirname, 'helpers', 'serve-for-import.ts'), dataDir],
      {
        env: { ...process.env, DATABASE_URL: databaseUrl },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    const ready = await new Promise<RegExpExecArray>((done, fail) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /ready (\d+) (\S+)/.exec(output);
        if (match) done(match);
        if (output.includes('failed')) fail(new Error(output));
      });
      child.once('exit', () => fail(new Error(`the server exited: ${output}`)));
    });
    base = `http://127.0.0.1:${ready[1]}`;
    token = ready[2];
  }, 120_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`skips a post of ${BODY_MB} MB with its reason; the import adds under ${IMPORT_ADDS_AT_MOST_MB} MB to peak memory; the server still answers`, async () => {
    // Written as a stream: the test never holds the file either.
    const file = join(dataDir, 'hostile.xml');
    const out = createWriteStream(file);
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    const author = { login: 'eve', email: 'eve@hostile.example.org', name: 'Eve' };
    await write(wxrHead({ url: SITE, authors: [author], terms: [] }));
    const before = wxrItem({ url: SITE }, { id: 1, title: 'Before', slug: 'before', path: '/before/', creator: 'eve' });
    await write(`${before.open}A normal post.${before.close}`);
    const huge = wxrItem({ url: SITE }, { id: 2, title: 'Huge', slug: 'huge', path: '/huge/', creator: 'eve' });
    await write(huge.open);
    const megabyte = `<p>${'All work and no play. '.repeat(47_662)}</p>\n`;
    for (let n = 0; n < BODY_MB; n += 1) await write(megabyte);
    await write(huge.close);
    const after = wxrItem({ url: SITE }, { id: 3, title: 'After', slug: 'after', path: '/after/', creator: 'eve' });
    await write(`${after.open}Another normal post.${after.close}${WXR_TAIL}`);
    out.end();
    await finished(out);

    const idle = statusMb(child.pid!, 'VmRSS');
    resetPeak(child.pid!);
    const started = await request(base)
      .post('/api/v1/admin/imports?source=wordpress')
      .set('Authorization', `Bearer ${token}`)
      .attach('file', file)
      .expect(202);
    let done: Record<string, any>;
    for (const until = Date.now() + 240_000; ;) {
      const res = await request(base)
        .get(`/api/v1/admin/imports/${started.body.data.id}`)
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
      if (!['QUEUED', 'RUNNING'].includes(res.body.data.state)) {
        done = res.body.data;
        break;
      }
      if (Date.now() > until) throw new Error('import did not end');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const peak = statusMb(child.pid!, 'VmHWM');
    console.log(`import memory: ${idle.toFixed(0)} MB resident before the upload, peak ${peak.toFixed(0)} MB through the import`);
    expect(done.state).toBe('DONE');
    expect(done.counts.posts).toBe(2);
    expect(done.skipped).toEqual([
      expect.objectContaining({
        kind: 'post',
        sourceId: '2',
        title: 'Huge',
        reason: `It holds more than ${ITEM_TEXT_MAX / 1024 / 1024} MB of text (the most one item may hold).`,
      }),
    ]);
    expect(peak - idle).toBeLessThan(IMPORT_ADDS_AT_MOST_MB);
    await request(base).get('/api/v1/blog/posts/public').expect(200);
    expect(child.exitCode).toBeNull();
  }, 300_000);
});

function finished(stream: NodeJS.WritableStream): Promise<void> {
  return new Promise((done, fail) => {
    stream.once('finish', () => done());
    stream.once('error', fail);
  });
}
