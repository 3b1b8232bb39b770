import { Injectable, Module, OnModuleInit } from '@nestjs/common';
import { tmpdir } from 'node:os';
import { DataSource } from 'typeorm';
import { loadConfig } from '../src/config/env';
import { createDataSource } from '../src/database/data-source';
import { JobsService } from '../src/jobs/jobs.service';
import { createTestApp, TestApp } from './helpers/app';
import { createFreshDatabase } from './helpers/fresh-database';

/**
 * The job queue (backend/src/jobs/, pg-boss 10): a job is written in the caller's transaction
 * (committed: it runs once; rolled back: it never existed), a failing job is retried with
 * backoff up to JOB_RETRY_LIMIT and then failed, and closing the app lets a running job finish
 * before the pool closes. A database of its own: no other suite's app works this queue.
 */
jest.setTimeout(60_000);

const QUEUE = 'test-echo';

interface EchoData {
  key: string;
  /** Fail this many tries before succeeding. */
  failures?: number;
  /** Wait for the test's release before finishing. */
  hold?: boolean;
}

@Injectable()
class EchoJobs implements OnModuleInit {
  readonly runs: { key: string; retryCount: number; lastAttempt: boolean }[] = [];
  readonly events: string[] = [];
  release?: () => void;

  constructor(private readonly jobs: JobsService) {}

  onModuleInit(): void {
    this.jobs.register<EchoData>(QUEUE, async (job) => {
      this.runs.push({ key: job.data.key, retryCount: job.retryCount, lastAttempt: job.lastAttempt });
      if (job.data.hold) {
        this.events.push('job started');
        await new Promise<void>((resolve) => (this.release = resolve));
        this.events.push('job finished');
      }
      if ((job.data.failures ?? 0) > job.retryCount) throw new Error(`try ${job.retryCount} failed`);
    });
  }
}

@Module({ providers: [EchoJobs] })
class EchoModule {}

describe('Job queue', () => {
  let databaseUrl: string;
  let t: TestApp;
  let db: DataSource;
  let echo: EchoJobs;

  beforeAll(async () => {
    databaseUrl = await createFreshDatabase('inkwell_jobs');
    t = await createTestApp({
      databaseUrl,
      extraModules: [EchoModule],
      env: { JOB_RETRY_LIMIT: '2', JOB_RETRY_DELAY_SECONDS: '1', JOB_POLL_SECONDS: '1' },
    });
    db = t.app.get(DataSource);
    echo = t.app.get(EchoJobs);
  });
  afterAll(() => t?.close());

  const job = async (key: string) =>
    (
      await db.query(
        `SELECT state, retry_count, retry_limit, retry_backoff, output FROM pgboss.job WHERE name = $1 AND data->>'key' = $2`,
        [QUEUE, key],
      )
    )[0] as
      { state: string; retry_count: number; retry_limit: number; retry_backoff: boolean; output: { message?: string } | null } | undefined;

  async function until<T>(read: () => Promise<T>, holds: (value: T) => boolean, what: string): Promise<T> {
    const deadline = Date.now() + 40_000;
    for (;;) {
      const value = await read();
      if (holds(value)) return value;
      if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('a job enqueued in a committed transaction runs once; in a rolled-back one it never exists', async () => {
    const jobs = t.app.get(JobsService);
    await db.transaction((manager) => jobs.enqueue(manager, QUEUE, { key: 'committed' }));
    await expect(
      db.transaction(async (manager) => {
        await jobs.enqueue(manager, QUEUE, { key: 'rolled-back' });
        expect(await manager.query(`SELECT 1 FROM pgboss.job WHERE data->>'key' = 'rolled-back'`)).toHaveLength(1);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await until(
      () => job('committed'),
      (row) => row?.state === 'completed',
      'committed job',
    );
    expect(echo.runs.filter((run) => run.key === 'committed')).toEqual([{ key: 'committed', retryCount: 0, lastAttempt: false }]);
    expect(await job('rolled-back')).toBeUndefined();
  });

  it("several jobs written in one statement (enqueueMany) commit or roll back with the transaction, with this instance's retry settings", async () => {
    const jobs = t.app.get(JobsService);
    await db.transaction((manager) => jobs.enqueueMany(manager, QUEUE, [{ key: 'many-a' }, { key: 'many-b' }]));
    await expect(
      db.transaction(async (manager) => {
        await jobs.enqueueMany(manager, QUEUE, [{ key: 'many-gone-a' }, { key: 'many-gone-b' }]);
        expect(await manager.query(`SELECT 1 FROM pgboss.job WHERE data->>'key' LIKE 'many-gone-%'`)).toHaveLength(2);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    for (const key of ['many-a', 'many-b']) {
      expect(
        await until(
          () => job(key),
          (row) => row?.state === 'completed',
          key,
        ),
      ).toMatchObject({ retry_limit: 2, retry_backoff: true });
      expect(echo.runs.filter((run) => run.key === key)).toEqual([{ key, retryCount: 0, lastAttempt: false }]);
    }
    expect(await job('many-gone-a')).toBeUndefined();
    expect(await job('many-gone-b')).toBeUndefined();
  });

  it('a failing job is retried with backoff, and fails for good after the last retry', async () => {
    const jobs = t.app.get(JobsService);
    await db.transaction(async (manager) => {
      await jobs.enqueue(manager, QUEUE, { key: 'recovers', failures: 1 });
      await jobs.enqueue(manager, QUEUE, { key: 'never', failures: 99 });
    });
    expect(
      await until(
        () => job('recovers'),
        (row) => row?.state === 'completed',
        'recovering job',
      ),
    ).toMatchObject({ retry_count: 1, retry_backoff: true });
    const failed = await until(
      () => job('never'),
      (row) => row?.state === 'failed',
      'failing job',
    );
    expect(failed).toMatchObject({ retry_count: 2, retry_limit: 2, retry_backoff: true, output: { message: 'try 2 failed' } });
    expect(echo.runs.filter((run) => run.key === 'never')).toEqual([
      { key: 'never', retryCount: 0, lastAttempt: false },
      { key: 'never', retryCount: 1, lastAttempt: false },
      { key: 'never', retryCount: 2, lastAttempt: true },
    ]);
  });

  it('closing the app lets a running job finish before the database pool closes', async () => {
    const jobs = t.app.get(JobsService);
    await db.transaction((manager) => jobs.enqueue(manager, QUEUE, { key: 'draining', hold: true }));
    await until(
      async () => echo.events.slice(),
      (events) => events.includes('job started'),
      'held job',
    );
    const closed = t.close().then(() => echo.events.push('app closed'));
    // The app is closing and the job still runs: let it finish.
    echo.release?.();
    await closed;
    expect(echo.events).toEqual(['job started', 'job finished', 'app closed']);
    const check = createDataSource(databaseUrl);
    await check.initialize();
    try {
      const [row] = await check.query(`SELECT state FROM pgboss.job WHERE name = $1 AND data->>'key' = 'draining'`, [QUEUE]);
      expect(row).toEqual({ state: 'completed' });
    } finally {
      await check.destroy();
    }
    t = undefined as unknown as TestApp;
  });
});

describe('Job queue start-up', () => {
  const QUEUES = 3;
  it('instances booting together on a new database create every queue without deadlocking', async () => {
    const databaseUrl = await createFreshDatabase('inkwell_jobs_boot');
    const config = loadConfig({ DATA_DIR: tmpdir(), LOG_LEVEL: 'silent' });
    const sources = Array.from({ length: 4 }, () => createDataSource(databaseUrl));
    await Promise.all(sources.map((source) => source.initialize()));
    const services = sources.map((source) => {
      const service = new JobsService(config, source);
      // As many queues as the app has workers' connections to spare (pg-boss's pool holds 4).
      for (let queue = 0; queue < QUEUES; queue++) service.register(`boot-${queue}`, async () => undefined);
      return service;
    });
    try {
      const boots = await Promise.allSettled(services.map((service) => service.onApplicationBootstrap()));
      expect(boots.filter((boot) => boot.status === 'rejected')).toEqual([]);
      const queues = (await sources[0].query(`SELECT name FROM pgboss.queue WHERE name LIKE 'boot-%' ORDER BY name`)) as { name: string }[];
      expect(queues.map(({ name }) => name)).toEqual(Array.from({ length: QUEUES }, (_, queue) => `boot-${queue}`));
    } finally {
      await Promise.all(services.map((service) => service.onModuleDestroy()));
      await Promise.all(sources.map((source) => source.destroy()));
    }
  });
});
