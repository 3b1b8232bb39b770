import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ZipArchive } from 'archiver';
import { createWriteStream, type WriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { ImageStorageService } from '../images/image-storage.service';
import { NewsletterAccountDataService } from '../newsletter/newsletter-account-data';
import { postToMarkdown } from '../posts/post-markdown';

/** Rows read per query: the archive never holds more than a batch of posts in memory. */
const BATCH = 200;
/** Entries the archive may have waiting before the writer waits for it (its queue would hold their text). */
const MAX_PENDING_ENTRIES = 8;

type Row = Record<string, unknown> & { id: number };

/** ISO text of a timestamp column (null stays null). */
const iso = (value: unknown): string | null =>
  value instanceof Date ? value.toISOString() : value === null || value === undefined ? null : String(value);

/**
 * The archive of 'Download my data', streamed: rows are read in batches by id and
 * each entry is written before the next batch is read, so memory stays flat whatever the account
 * holds (1,000 posts and 5,000 comments: docs/account-security.md, 'Your data', has the figures). Contents:
 * - profile.json, likes.json, comments.json, notifications.json, sessions.json, newsletter.json (the
 *   newsletter subscriber row, its follows and deliveries);
 * - posts/<id>-<slug>.md for every post the account wrote (any status): Markdown with YAML front
 *   matter (posts/post-markdown.ts, the site export's format too);
 * - images/: the avatar and every thumbnail the account uploaded or its posts show.
 * `progress` is told the percent done after each step.
 */
@Injectable()
export class AccountExportWriter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly storage: ImageStorageService,
    private readonly newsletter: NewsletterAccountDataService,
  ) {}

  async write(userId: number, path: string, progress: (percent: number) => Promise<void>): Promise<void> {
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const output = createWriteStream(path);
    try {
      await this.fill(userId, archive, output, progress);
    } catch (error) {
      // The file is left for the caller to delete; its descriptor and the archive's work end here.
      archive.abort();
      output.destroy();
      throw error;
    }
  }

  private async fill(
    userId: number,
    archive: ZipArchive,
    output: WriteStream,
    progress: (percent: number) => Promise<void>,
  ): Promise<void> {
    let failed: Error | undefined;
    const finished = new Promise<void>((resolve, reject) => {
      output.on('close', resolve);
      const fail = (error: Error) => {
        failed = error;
        reject(error);
      };
      output.on('error', fail);
      archive.on('error', fail);
    });
    finished.catch(() => undefined);
    archive.pipe(output);

    let appended = 0;
    let processed = 0;
    let wake: (() => void) | undefined;
    archive.on('entry', () => {
      processed += 1;
      wake?.();
    });
    const date = new Date();
    const add = async (source: Buffer | Readable, name: string): Promise<void> => {
      if (failed) throw failed;
      archive.append(source, { name, date });
      appended += 1;
      while (appended - processed > MAX_PENDING_ENTRIES && !failed) await new Promise<void>((resolve) => (wake = resolve));
      if (failed) throw failed;
    };
    const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

    const [{ posts: postTotal }] = (await this.dataSource.query(`SELECT count(*)::int AS posts FROM posts WHERE author_id = $1`, [
      userId,
    ])) as { posts: number }[];
    const steps = postTotal + 7;
    let done = 0;
    const step = async (count = 1) => {
      done += count;
      await progress(Math.min(99, Math.floor((done / steps) * 100)));
    };

    const profile = await this.profile(userId);
    await add(json(profile), 'profile.json');
    await step();
    await add(
      this.jsonArray(userId, LIKES_SQL, (row) => ({
        postId: row.post_id,
        postTitle: row.title,
        postSlug: row.slug,
        likedAt: iso(row.created_at),
      })),
      'likes.json',
    );
    await step();
    await add(
      this.jsonArray(userId, COMMENTS_SQL, (row) => ({
        id: row.id,
        postId: row.post_id,
        postSlug: row.slug,
        postTitle: row.title,
        parentId: row.parent_id,
        content: row.content,
        visibility: row.moderation,
        deleted: row.deleted_at !== null,
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
      })),
      'comments.json',
    );
    await step();
    await add(
      this.jsonArray(userId, NOTIFICATIONS_SQL, (row) => ({
        id: row.id,
        type: row.type,
        postId: row.post_id,
        commentId: row.comment_id,
        reason: row.reason,
        read: row.is_read,
        createdAt: iso(row.created_at),
      })),
      'notifications.json',
    );
    await step();
    await add(json(await this.sessions(userId)), 'sessions.json');
    await step();
    await add(json(await this.newsletter.exportOf(userId)), 'newsletter.json');
    await step();

    const thumbnails = new Set<string>();
    let after = 0;
    for (;;) {
      const posts = (await this.dataSource.query(POSTS_SQL, [userId, after, BATCH])) as Row[];
      if (!posts.length) break;
      for (const post of posts) {
        const thumbnail = this.storage.nameOf('thumbnails', post.thumbnail as string | null);
        if (thumbnail) thumbnails.add(thumbnail);
        const markdown = postToMarkdown(
          {
            title: post.title as string,
            slug: post.slug as string,
            status: post.status as string,
            summary: post.summary as string | null,
            author: profile.fullName,
            tags: post.tags as string[],
            featured: post.is_featured as boolean,
            thumbnail: post.thumbnail as string | null,
            createdAt: iso(post.created_at),
            updatedAt: iso(post.updated_at),
            publishedAt: iso(post.published_at),
            metaTitle: post.meta_title as string | null,
            metaDescription: post.meta_description as string | null,
            canonicalUrl: post.canonical_url as string | null,
          },
          post.content as string,
        );
        await add(Buffer.from(markdown), `posts/${post.id}-${post.slug as string}.md`);
      }
      after = posts[posts.length - 1].id;
      await step(posts.length);
    }

    const owned = (await this.dataSource.query(`SELECT name FROM thumbnails WHERE owner_id = $1`, [userId])) as { name: string }[];
    for (const { name } of owned) thumbnails.add(name);
    const avatar = this.storage.nameOf('avatars', profile.avatar);
    if (avatar) {
      const stream = await this.storage.read('avatars', avatar);
      if (stream) await add(stream, `images/avatar/${avatar}`);
    }
    for (const name of thumbnails) {
      const stream = await this.storage.read('thumbnails', name);
      if (stream) await add(stream, `images/thumbnails/${name}`);
    }
    await step();

    await archive.finalize();
    await finished;
  }

  private async profile(userId: number): Promise<{ fullName: string; avatar: string | null } & Record<string, unknown>> {
    const [row] = (await this.dataSource.query(
      `SELECT u.id, u.full_name, u.email, u.slug, u.bio, u.website, u.location, u.avatar, u.status, u.is_verified, u.email_verified_at, u.last_login_at, u.created_at, u.updated_at,
              ARRAY(SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id ORDER BY r.id)::text[] AS roles
         FROM users u WHERE u.id = $1`,
      [userId],
    )) as Row[];
    if (!row) throw new Error(`account ${userId} is gone`);
    return {
      id: row.id,
      fullName: row.full_name as string,
      email: row.email,
      slug: row.slug,
      bio: row.bio,
      website: row.website,
      location: row.location,
      avatar: row.avatar as string | null,
      status: row.status,
      emailVerified: row.is_verified,
      emailVerifiedAt: iso(row.email_verified_at),
      roles: row.roles,
      lastLoginAt: iso(row.last_login_at),
      createdAt: iso(row.created_at),
      updatedAt: iso(row.updated_at),
      exportedAt: new Date().toISOString(),
    };
  }

  /** The sign-ins (one per session family: its first token's time, its last use, its device and address). */
  private async sessions(userId: number): Promise<unknown[]> {
    const rows = (await this.dataSource.query(
      `SELECT family_id, min(created_at) AS created_at, max(last_used_at) AS last_used_at, max(expires_at) AS expires_at,
              (array_agg(user_agent ORDER BY created_at))[1] AS user_agent, (array_agg(ip ORDER BY created_at))[1] AS ip,
              bool_or(revoked_at IS NULL AND expires_at > now()) AS live
         FROM refresh_sessions WHERE user_id = $1 GROUP BY family_id ORDER BY min(created_at)`,
      [userId],
    )) as Record<string, unknown>[];
    return rows.map((row) => ({
      createdAt: iso(row.created_at),
      lastUsedAt: iso(row.last_used_at),
      expiresAt: iso(row.expires_at),
      userAgent: row.user_agent,
      ip: row.ip,
      live: row.live,
    }));
  }

  /** A JSON array read in batches by id ($2 the last id, $3 the batch size) and streamed. */
  private jsonArray(userId: number, sql: string, map: (row: Row) => unknown): Readable {
    const dataSource = this.dataSource;
    async function* lines(): AsyncGenerator<Buffer> {
      yield Buffer.from('[');
      let after = 0;
      let first = true;
      for (;;) {
        const rows = (await dataSource.query(sql, [userId, after, BATCH])) as Row[];
        if (!rows.length) break;
        let text = '';
        for (const row of rows) {
          text += `${first ? '' : ','}\n  ${JSON.stringify(map(row))}`;
          first = false;
        }
        yield Buffer.from(text);
        after = rows[rows.length - 1].id;
      }
      yield Buffer.from('\n]\n');
    }
    return Readable.from(lines(), { objectMode: false });
  }
}

const LIKES_SQL = `SELECT l.id, l.post_id, l.created_at, p.title, p.slug FROM likes l JOIN posts p ON p.id = l.post_id
  WHERE l.user_id = $1 AND l.id > $2 ORDER BY l.id LIMIT $3`;
const COMMENTS_SQL = `SELECT c.id, c.post_id, c.parent_id, c.content, c.moderation, c.deleted_at, c.created_at, c.updated_at, p.slug, p.title
  FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.user_id = $1 AND c.id > $2 ORDER BY c.id LIMIT $3`;
const NOTIFICATIONS_SQL = `SELECT n.id, n.type, n.post_id, n.comment_id, n.reason, n.read AS is_read, n.created_at FROM notifications n
  WHERE n.user_id = $1 AND n.id > $2 ORDER BY n.id LIMIT $3`;
const POSTS_SQL = `SELECT p.id, p.title, p.slug, p.status, p.summary, p.content, p.thumbnail, p.is_featured, p.created_at, p.updated_at, p.published_at,
       p.meta_title, p.meta_description, p.canonical_url,
       ARRAY(SELECT t.name FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id ORDER BY t.name)::text[] AS tags
  FROM posts p WHERE p.author_id = $1 AND p.id > $2 ORDER BY p.id LIMIT $3`;
