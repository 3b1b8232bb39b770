import { Logger } from '@nestjs/common';
import { Client } from 'pg';

/** First key of every Inkwell advisory lock ('inkw'); the second names the job. */
const LOCK_NAMESPACE = 0x696e6b77;

export const JobLockIds = {
  THUMBNAIL_SWEEP: 1,
  SCHEDULED_PUBLISH: 2,
  NEWSLETTER_DIGEST: 3,
  ANALYTICS_ROLLUP: 4,
  SCHEDULED_BACKUP: 5,
} as const;

/**
 * Makes a periodic job run on one instance only, whatever their number: the first instance to
 * ask takes a PostgreSQL session advisory lock (pg_try_advisory_lock) on a connection of its own
 * and keeps it, so its runs are the only ones; the others find it taken and skip theirs. When the
 * holder stops or dies, its connection closes, PostgreSQL frees the lock, and the next instance to
 * ask takes it over. Works with the embedded database and DATABASE_URL alike, Redis or not.
 */
export class JobLock {
  private readonly logger = new Logger('JobLock');
  private client?: Client;
  private asking?: Promise<boolean>;

  constructor(
    private readonly databaseUrl: string,
    private readonly job: number,
  ) {}

  /** True when this instance holds the lock (taking it if it is free); false if another does or the database is away. */
  hold(): Promise<boolean> {
    this.asking ??= this.ask().finally(() => (this.asking = undefined));
    return this.asking;
  }

  /** Whether this instance held the lock when last asked (no database round trip). */
  get held(): boolean {
    return !!this.client;
  }

  async release(): Promise<void> {
    await this.asking?.catch(() => false);
    await this.drop();
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    // Ending the session frees its advisory locks.
    await client?.end().catch(() => undefined);
  }

  private async ask(): Promise<boolean> {
    if (this.client) {
      try {
        await this.client.query('SELECT 1');
        return true;
      } catch {
        await this.drop();
      }
    }
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: 'inkwell-job-lock',
      connectionTimeoutMillis: 3_000,
      keepAlive: true,
    });
    client.on('error', (error) => {
      this.logger.warn(`job lock connection lost: ${error.message}`);
      if (this.client === client) this.client = undefined;
    });
    try {
      await client.connect();
      const { rows } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS held', [
        LOCK_NAMESPACE,
        this.job,
      ]);
      if (rows[0]?.held) {
        this.client = client;
        return true;
      }
    } catch {
      // the database is away: nobody runs the job now
    }
    await client.end().catch(() => undefined);
    return false;
  }
}
