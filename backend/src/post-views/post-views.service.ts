import { BeforeApplicationShutdown, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

const FLUSH_INTERVAL_MS = 5_000;
const FLUSH_CHUNK = 1_000;

/**
 * The one place post views are counted, batched (docs/requirements.md#decision-counters): count() only counts in memory;
 * every 5 s (and before the app shuts down) one UPDATE ... FROM (VALUES ...) adds the counts to
 * the published posts. Two callers, one view per answered post page or post read:
 * PostsPublicService.bySlug (by id: the public endpoint, and every rendered post page, which reads
 * the post through it) and the page-view recorder (analytics/page-view-recorder.service.ts, by
 * slug: a post page answered from the page cache, fast path or middleware, 304s and HEAD
 * included, renders nothing). The recorder feeds the analytics views from the same call.
 */
@Injectable()
export class PostViewsService implements OnModuleInit, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger(PostViewsService.name);
  private byId = new Map<number, number>();
  private bySlug = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  /** One view of a published post, by its id or (a cached page) its slug. */
  count(post: number | string): void {
    if (typeof post === 'number') {
      this.byId.set(post, (this.byId.get(post) ?? 0) + 1);
      return;
    }
    if (post.length > 200) return;
    this.bySlug.set(post, (this.bySlug.get(post) ?? 0) + 1);
  }

  /** Writes the pending counts (serialised: a flush waits for the previous one). */
  flush(): Promise<void> {
    this.flushing = this.flushing
      .then(() => this.write())
      .catch((error: unknown) => this.logger.error(`view count flush failed: ${String(error)}`));
    return this.flushing;
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async write(): Promise<void> {
    const byId = this.byId;
    const bySlug = this.bySlug;
    if (!byId.size && !bySlug.size) return;
    this.byId = new Map();
    this.bySlug = new Map();
    if (!this.dataSource.isInitialized) return;
    // At most 1,000 rows per statement (PostgreSQL takes up to 65,535 parameters). A chunk that
    // fails (the database is away) is counted again in memory and written by a later flush.
    try {
      await this.writeChunks(byId, this.byId, 'int', 'id');
    } catch (error) {
      for (const [slug, n] of bySlug) this.bySlug.set(slug, (this.bySlug.get(slug) ?? 0) + n);
      throw error;
    }
    await this.writeChunks(bySlug, this.bySlug, 'varchar', 'slug');
  }

  private async writeChunks<K>(
    counts: Map<K, number>,
    pending: Map<K, number>,
    type: 'int' | 'varchar',
    column: 'id' | 'slug',
  ): Promise<void> {
    const entries = [...counts.entries()];
    for (let i = 0; i < entries.length; i += FLUSH_CHUNK) {
      const chunk = entries.slice(i, i + FLUSH_CHUNK);
      const values = chunk.map((_entry, k) => `($${2 * k + 1}::${type}, $${2 * k + 2}::int)`).join(', ');
      try {
        await this.dataSource.query(
          `UPDATE posts SET view_count = view_count + v.n FROM (VALUES ${values}) AS v(key, n) WHERE posts.${column} = v.key AND posts.status = 'PUBLISHED'`,
          chunk.flat(),
        );
      } catch (error) {
        for (const [key, n] of entries.slice(i)) pending.set(key, (pending.get(key) ?? 0) + n);
        throw error;
      }
    }
  }
}
