import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import PgBoss from 'pg-boss';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';

/** Jobs a worker takes at once (run side by side: an e-mail job mostly waits for the SMTP server). */
const JOB_BATCH = 10;

/** pg-boss keeps its tables in a schema of its own, next to the app's. */
export const JOBS_SCHEMA = 'pgboss';

/** Advisory lock keys of the queue's own start-up ('inkj': apart from database/job-lock.ts's 'inkw'). */
const JOBS_LOCK_NAMESPACE = 0x696e6b6a;
const JOBS_LOCK_CREATE_QUEUES = 1;

/** What a handler is given: the job's data, and whether this is its last try (then a failure is final). */
export interface JobRun<T> {
  id: string;
  data: T;
  /** 0 on the first try. */
  retryCount: number;
  lastAttempt: boolean;
}

export type JobHandler<T> = (job: JobRun<T>) => Promise<void>;

interface Registration {
  name: string;
  handler: JobHandler<object>;
  policy: PgBoss.QueuePolicy;
  /** Jobs taken at once (default JOB_BATCH). */
  batchSize: number;
}

/** Options of one job (pg-boss's, minus the executor, which `enqueue` supplies). */
export type EnqueueOptions = Omit<PgBoss.SendOptions, 'db'>;

/**
 * The job queue (docs/architecture.md#job-queue: work that outlives a request): pg-boss 10 on the app's own
 * PostgreSQL, schema `pgboss` (docs/decisions.md). `enqueue` writes the job through the caller's
 * transaction, so a job exists exactly when the change that asked for it committed. Workers start
 * once the app has booted and stop (letting running jobs finish) when it closes; every instance
 * works every queue and PostgreSQL's SKIP LOCKED hands each job to one of them. A failed job is
 * retried with exponential backoff (JOB_RETRY_*); one whose instance died mid-run runs again once
 * JOB_EXPIRE_SECONDS pass. A database outage is logged (pg-boss's 'error' event), never thrown.
 */
@Injectable()
export class JobsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Jobs');
  private readonly boss: PgBoss;
  private readonly registrations: Registration[] = [];
  private started = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    const { jobs } = config;
    const url = (dataSource.options as { url?: string }).url;
    this.boss = new PgBoss({
      connectionString: url,
      schema: JOBS_SCHEMA,
      application_name: 'inkwell-jobs',
      max: 4,
      retryLimit: jobs.retryLimit,
      retryDelay: jobs.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: jobs.expireSeconds,
      // Expired jobs (their instance died) are found by the maintenance pass: run it often enough
      // that such a job waits about JOB_EXPIRE_SECONDS, not minutes more.
      maintenanceIntervalSeconds: Math.max(1, Math.min(60, Math.round(jobs.expireSeconds / 4))),
      // No cron schedules: the hourly digest is a delayed job per user.
      schedule: false,
    });
    this.boss.on('error', (error: Error) => this.logger.error({ err: error }, `Job queue: ${error.message}`));
  }

  /**
   * A queue and its handler: register in `onModuleInit` (workers start after boot). The handler
   * throws to have the job retried. Policy 'short': at most one job per singletonKey waits.
   * `batchSize`: jobs run side by side (webhook deliveries mostly wait for their receivers).
   */
  register<T extends object>(
    name: string,
    handler: JobHandler<T>,
    policy: PgBoss.QueuePolicy = 'standard',
    options: { batchSize?: number } = {},
  ): void {
    if (this.started) throw new Error(`Job queue ${name} registered after start`);
    this.registrations.push({ name, handler: handler as JobHandler<object>, policy, batchSize: options.batchSize ?? JOB_BATCH });
  }

  /** Writes a job with the caller's transaction (`manager` of `dataSource.transaction`). */
  async enqueue(manager: EntityManager, name: string, data: object, options: EnqueueOptions = {}): Promise<string | null> {
    return this.boss.send(name, data, { ...this.jobSettings(), ...options, db: this.executor(manager) });
  }

  /** Several jobs of one queue in one statement, with the caller's transaction (no singleton or delay options). */
  async enqueueMany(manager: EntityManager, name: string, data: object[]): Promise<void> {
    if (!data.length) return;
    const { retryLimit, retryDelay, retryBackoff, expireInSeconds } = this.jobSettings();
    await this.boss.insert(
      data.map((item) => ({ name, data: item, retryLimit, retryDelay, retryBackoff, expireInSeconds })),
      { db: this.executor(manager) },
    );
  }

  /** This instance's settings on every job: a queue keeps the settings of whichever instance created it. */
  private jobSettings(): Required<Pick<EnqueueOptions, 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'expireInSeconds'>> {
    const { retryLimit, retryDelaySeconds, expireSeconds } = this.config.jobs;
    return { retryLimit, retryDelay: retryDelaySeconds, retryBackoff: true, expireInSeconds: expireSeconds };
  }

  /** pg-boss's SQL through the caller's transaction. */
  private executor(manager: EntityManager): PgBoss.Db {
    const runner = manager.queryRunner;
    return {
      executeSql: async (text, values) =>
        runner ? { rows: (await runner.query(text, values, true)).records } : { rows: (await manager.query(text, values)) as unknown[] },
    };
  }

  async onApplicationBootstrap(): Promise<void> {
    this.started = true;
    try {
      await this.boss.start();
      await this.createQueues();
      for (const registration of this.registrations) await this.startWorker(registration);
    } catch (error) {
      // A half-started queue must not keep polling (and holding its pool) after a failed boot.
      this.started = false;
      await this.boss.stop({ graceful: false, wait: true, timeout: 5_000 }).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Creates the queues that do not exist yet, one instance at a time. pg-boss's create_queue adds a
   * partition and a foreign key to its queue table; two instances booting together (a deploy, or
   * parallel test suites on one database) each insert a queue row and then wait for the other's
   * lock on that table: a deadlock that failed the boot. A transaction-scoped advisory lock, in
   * the app's own database, lets one instance create at a time.
   */
  private async createQueues(): Promise<void> {
    const { jobs } = this.config;
    await this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [JOBS_LOCK_NAMESPACE, JOBS_LOCK_CREATE_QUEUES]);
      for (const { name, policy } of this.registrations) {
        const options = {
          policy,
          retryLimit: jobs.retryLimit,
          retryDelay: jobs.retryDelaySeconds,
          retryBackoff: true,
          expireInSeconds: jobs.expireSeconds,
        };
        await manager.query(`SELECT ${JOBS_SCHEMA}.create_queue($1, $2::json)`, [name, JSON.stringify(options)]);
      }
    });
  }

  private async startWorker({ name, handler, batchSize }: Registration): Promise<void> {
    const { jobs } = this.config;
    let workerId: string | undefined;
    // Declared first: pg-boss may call the handler below (which reads it) before work() resolves.
    // eslint-disable-next-line prefer-const
    workerId = await this.boss.work<object>(
      name,
      { pollingIntervalSeconds: jobs.pollSeconds, batchSize, includeMetadata: true },
      async (batch) => {
        // Each job succeeds or fails on its own: a failed one is failed (retried) here, and pg-boss
        // completes the rest when this returns.
        await Promise.all(
          batch.map(async (job) => {
            try {
              await handler({ id: job.id, data: job.data, retryCount: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit });
            } catch (error) {
              await this.boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) });
            }
          }),
        );
        // pg-boss waits a polling interval after every fetch: while jobs are waiting, fetch again now.
        if (batch.length && workerId) this.boss.notifyWorker(workerId);
      },
    );
  }

  /**
   * Stops taking jobs and waits (up to 20 s) for those running; pg-boss's own pool closes. Runs in
   * onModuleDestroy, before any onApplicationShutdown: the database pool and the SMTP transport
   * (closed there) are still open for the jobs finishing, so a sent e-mail is always recorded.
   */
  async onModuleDestroy(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 20_000 });
  }

  /** Jobs of a queue not yet finished (created, retry or active): tests and the chaos script wait for 0. */
  pending(name: string): Promise<number> {
    return this.boss.getQueueSize(name, { before: 'completed' });
  }
}
