import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AccountInvitations } from './account-invitations';
import type { AuthUser } from '../auth/auth-user';
import { RoleName } from '../users/roles';
import { ContentEvents } from '../common/content-events';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RequestActivity } from '../common/request-activity';
import { isUniqueViolation } from '../common/database-errors';
import { CommentVisibility } from '../comments/visibility/comment-visibility.service';
import { MAX_COMMENT_LEVEL } from '../comments/entities/comment.entity';
import { DomainEvents } from '../events/domain-events.service';
import { MAX_IMAGE_BYTES } from '../images/image-rules';
import { ImagesService } from '../images/images.service';
import { PostStatus } from '../posts/entities/post.entity';
import { PostsService } from '../posts/posts.service';
import { TagsService } from '../tags/tags.service';
import { UserStatus } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { SLUG_PATTERN, slugify } from '../../../isomorphic/slug';
import {
  IMPORT_REPORT_ROWS,
  ImportCounts,
  ImportRename,
  ImportSkip,
  ImportSource,
  ImportState,
  SiteImport,
} from './entities/site-import.entity';
import { MediaArchive } from './media-archive';
import { transliterate } from './transliterate';
import { readGhost, surveyGhost } from './sources/ghost-reader';
import { readInkwell, surveyInkwell } from './sources/inkwell-reader';
import {
  BadSourceFile,
  ownCopy,
  SourceComment,
  SourcePost,
  SourceRecord,
  SourceSurvey,
  SourceTag,
  SourceUser,
} from './sources/source-records';
import { readWxr, surveyWxr } from './sources/wxr-reader';

/** Caps the owners' columns hold (docs/requirements.md#length-caps): a longer title is shortened and reported, a longer body skipped. */
const TITLE_MAX = 200;
const CONTENT_MAX = 200_000;
const COMMENT_MAX = 200;
const NAME_MAX = 100;
/** A stored account never signs in with a password until its owner sets one (PasswordHasher: '!' never matches). */
const NO_PASSWORD = '!';
/** Progress is written, and a cancel looked for, this often (posts); the loop yields to requests after each post. */
const FLUSH_EVERY = 10;
/**
 * While readers are being served (20 requests a second or more: more than admin pages polling a
 * progress bar make), the import takes at most this share of the time: after a post that took t,
 * it waits t × (1 / share − 1), at most a second. Its work runs on the event loop that answers
 * them; at full speed its turns (and the garbage collections its allocations cause) made the
 * cached pages' p99 4× their idle one.
 */
const IMPORT_SHARE_WHILE_READ = 0.1;
const READERS_PER_SECOND = 20;
const MAX_PAUSE_MS = 1000;

/** How long the import waits after a post that took `postMs`, with this many requests in the last second (0: it only lets waiting requests through). */
export function pauseAfterPost(postMs: number, requestsPerSecond: number): number {
  if (requestsPerSecond < READERS_PER_SECOND) return 0;
  return Math.min(postMs * (1 / IMPORT_SHARE_WHILE_READ - 1), MAX_PAUSE_MS);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where a comment of this import sits: its row, its level, and its parent (a reply to a level-3 comment goes under that parent). */
interface PlacedComment {
  id: number;
  level: number;
  parentId: number | null;
}

/** One run's state: the maps from source ids to this site's rows, the tallies and the report. */
class Run {
  readonly counts: ImportCounts = { users: 0, tags: 0, posts: 0, comments: 0, images: 0, redirects: 0, invitations: 0 };
  readonly skipped: ImportSkip[] = [];
  readonly renamed: ImportRename[] = [];
  skippedCount = 0;
  renamedCount = 0;
  processed = 0;
  readonly users = new Map<string, number>();
  readonly tags = new Map<string, number>();
  /** Commenters by e-mail (lower-cased): one account each. */
  readonly commenters = new Map<string, number>();
  /** Each tag this run used by the first source tag that led to it (a second one is a merge, reported). */
  readonly tagClaims = new Map<number, string>();
  /** The file is this site's own export (its ids are this site's): what is here already is passed over. */
  ownSite = false;

  constructor(
    readonly job: SiteImport,
    readonly origin: string,
    readonly admin: AuthUser,
    readonly media: MediaArchive | null,
  ) {}

  // Report rows, and the maps' keys, outlive their record: kept as own copies (see ownCopy).
  skip(entry: ImportSkip): void {
    this.skippedCount += 1;
    if (this.skipped.length < IMPORT_REPORT_ROWS)
      this.skipped.push({
        kind: entry.kind,
        sourceId: ownCopy(entry.sourceId),
        title: ownCopy(entry.title),
        reason: ownCopy(entry.reason),
      });
  }

  /** A source record kept under another name, merged into another, or changed on the way in (the report's 'Renamed'). */
  rename(entry: ImportRename): void {
    this.renamedCount += 1;
    if (this.renamed.length < IMPORT_REPORT_ROWS)
      this.renamed.push({
        kind: entry.kind,
        sourceId: ownCopy(entry.sourceId),
        from: ownCopy(entry.from),
        to: ownCopy(entry.to),
        reason: ownCopy(entry.reason),
      });
  }
}

/** Raised between posts when an admin cancelled the import: what is written stays, the rest is not read. */
class Cancelled extends Error {}

/**
 * Runs one site import: reads the source as a stream of records and writes each
 * through its owner — accounts through UsersService.create, tags through TagsService, posts
 * through PostsService.createHistoric (the post lifecycle), comments through CommentVisibility —
 * inside DomainEvents.asHistoric, so counters, revisions, search, caches and the audit log follow
 * and nobody is notified (caches hear it in batches: ContentEvents.inBatches). Each post and its
 * comments are one small transaction; a post already brought in by an earlier run of the same site
 * (import_items) is passed over, so a second run adds nothing. Progress and the report are written
 * to the import's row as it goes; a cancel is looked for between posts. While readers are served,
 * the import slows down (pauseAfterPost).
 */
@Injectable()
export class SiteImporter {
  private readonly logger = new Logger('SiteImporter');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly users: UsersService,
    private readonly tags: TagsService,
    private readonly posts: PostsService,
    private readonly comments: CommentVisibility,
    private readonly images: ImagesService,
    private readonly invitations: AccountInvitations,
    private readonly contentEvents: ContentEvents,
    private readonly activity: RequestActivity,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Runs import `id` to its end (DONE, FAILED or CANCELLED, written on its row). */
  async run(id: number): Promise<SiteImport> {
    const job = await this.dataSource.manager.findOneByOrFail(SiteImport, { id });
    if (job.state !== ImportState.QUEUED && job.state !== ImportState.RUNNING) return job;
    let media: MediaArchive | null = null;
    try {
      const admin = job.createdBy ? await this.users.findAuthUser(job.createdBy) : 'not-found';
      if (typeof admin === 'string' || admin.role !== RoleName.ADMIN)
        throw new BadSourceFile('The administrator who started this import no longer has access.');
      if (!job.filePath) throw new BadSourceFile('The uploaded file is gone.');
      await this.dataSource.manager.update(SiteImport, { id }, { state: ImportState.RUNNING, startedAt: new Date() });
      // The whole file is read once before anything is written: a malformed one fails here.
      const survey = await this.survey(job.source, job.filePath);
      await this.dataSource.manager.update(SiteImport, { id }, { total: survey.posts });
      // An Inkwell export carries its images in the same zip.
      const mediaPath = job.mediaPath ?? (job.source === ImportSource.INKWELL ? job.filePath : null);
      media = mediaPath ? await MediaArchive.open(mediaPath) : null;
      const run = new Run(job, survey.origin, admin, media);
      run.ownSite =
        job.source === ImportSource.INKWELL && survey.origin === `inkwell:${this.config.publicUrl.replace(/\/+$/, '').toLowerCase()}`;
      // Caches hear the import's changes once a second, not once per post (readers keep cached pages).
      await this.contentEvents.inBatches(() =>
        this.events.asHistoric(async () => {
          for await (const record of this.records(job.source, job.filePath!, survey)) await this.handle(run, record);
        }),
      );
      await this.finish(run, ImportState.DONE);
    } catch (error) {
      if (error instanceof Cancelled) return this.reload(id);
      const message =
        error instanceof BadSourceFile
          ? error.message
          : 'The import stopped on an unexpected error; what it wrote is kept and running it again continues.';
      if (!(error instanceof BadSourceFile)) this.logger.error({ err: error }, `Import ${id} failed`);
      await this.dataSource.manager.update(
        SiteImport,
        { id },
        { state: ImportState.FAILED, error: message.slice(0, 1000), finishedAt: new Date() },
      );
    } finally {
      await media?.close();
    }
    return this.reload(id);
  }

  private reload(id: number): Promise<SiteImport> {
    return this.dataSource.manager.findOneByOrFail(SiteImport, { id });
  }

  private survey(source: ImportSource, path: string): Promise<SourceSurvey & { attachments?: Map<string, string> }> {
    if (source === ImportSource.WORDPRESS) return surveyWxr(path);
    if (source === ImportSource.GHOST) return surveyGhost(path);
    return surveyInkwell(path);
  }

  private records(source: ImportSource, path: string, survey: SourceSurvey): AsyncGenerator<SourceRecord> {
    if (source === ImportSource.WORDPRESS) return readWxr(path, survey as Awaited<ReturnType<typeof surveyWxr>>);
    if (source === ImportSource.GHOST) return readGhost(path);
    return readInkwell(path);
  }

  private async handle(run: Run, record: SourceRecord): Promise<void> {
    if (record.type === 'user') await this.user(run, record.user, [RoleName.AUTHOR], { invitable: true });
    else if (record.type === 'tag') await this.tag(run, record.tag);
    else if (record.type === 'skip') run.skip(record.skip);
    else {
      const started = performance.now();
      await this.post(run, record.post);
      run.processed += 1;
      if (run.processed % FLUSH_EVERY === 0) await this.flush(run);
      await this.yieldToReaders(performance.now() - started);
    }
  }

  /** Between posts: requests waiting on this process are served; while readers are, the import slows to its share. */
  private async yieldToReaders(postMs: number): Promise<void> {
    const pause = pauseAfterPost(postMs, this.activity.perSecond());
    await (pause > 0 ? sleep(pause) : new Promise((resolve) => setImmediate(resolve)));
  }

  /** Writes progress and the report so far; stops the run when an admin asked to cancel. */
  private async flush(run: Run): Promise<void> {
    const [row] = (await this.dataSource.query(
      `UPDATE site_imports SET processed = $2, counts = $3, skipped_count = $4, skipped = $5, renamed_count = $6, renamed = $7 WHERE id = $1 RETURNING cancel_requested`,
      [run.job.id, run.processed, run.counts, run.skippedCount, JSON.stringify(run.skipped), run.renamedCount, JSON.stringify(run.renamed)],
    )) as [{ cancel_requested: boolean }[], number];
    if (row[0]?.cancel_requested) {
      await this.finish(run, ImportState.CANCELLED);
      throw new Cancelled();
    }
  }

  private async finish(run: Run, state: ImportState): Promise<void> {
    await this.dataSource.query(
      `UPDATE site_imports SET state = $2, processed = $3, counts = $4, skipped_count = $5, skipped = $6, renamed_count = $7, renamed = $8, finished_at = now() WHERE id = $1`,
      [
        run.job.id,
        state,
        run.processed,
        run.counts,
        run.skippedCount,
        JSON.stringify(run.skipped),
        run.renamedCount,
        JSON.stringify(run.renamed),
      ],
    );
  }

  // ---- the source's ids -----------------------------------------------------------------------

  private async known(manager: EntityManager, origin: string, kind: string, sourceId: string): Promise<number | undefined> {
    const [row] = (await manager.query(`SELECT local_id FROM import_items WHERE origin = $1 AND kind = $2 AND source_id = $3`, [
      origin,
      kind,
      sourceId,
    ])) as { local_id: number }[];
    return row?.local_id;
  }

  private async remember(manager: EntityManager, origin: string, kind: string, sourceId: string, localId: number): Promise<void> {
    await manager.query(`INSERT INTO import_items (origin, kind, source_id, local_id) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [
      origin,
      kind,
      sourceId,
      localId,
    ]);
  }

  // ---- users ----------------------------------------------------------------------------------

  /**
   * The account for a source user: one already here with that e-mail, else a new one (unverified,
   * no password). When the import was asked to invite, a new AUTHOR account from the file's users
   * (not a commenter's) gets an invitation, queued in the transaction that creates it: an account
   * that was already here, or a re-run that creates nobody, invites nobody.
   */
  private async user(run: Run, user: SourceUser, roles: RoleName[], { invitable = false } = {}): Promise<number | undefined> {
    const email = user.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) {
      run.skip({
        kind: 'user',
        sourceId: user.sourceId,
        title: user.fullName,
        reason: 'No valid e-mail address: their posts go to the administrator running the import.',
      });
      return undefined;
    }
    const existing =
      (await this.known(this.dataSource.manager, run.origin, 'user', user.sourceId)) ?? (await this.users.findByEmail(email))?.id;
    let id = existing;
    if (id === undefined) {
      const accountRoles = importedRoles(user.roles ?? roles);
      const dropped = (user.roles ?? roles).filter((role) => !accountRoles.includes(role));
      if (dropped.length)
        run.rename({
          kind: 'user',
          sourceId: user.sourceId,
          from: (user.roles ?? roles).join(', '),
          to: accountRoles.join(', '),
          reason: `An import never grants ${dropped.join(', ')}: the account is an author at most, and waits for its invitation`,
        });
      const invite = run.job.inviteAuthors && invitable && accountRoles.includes(RoleName.AUTHOR);
      try {
        id = await this.events.transaction(async (tx) => {
          const facts = await this.users.create(
            {
              fullName: (user.fullName.trim() || email.split('@')[0]).slice(0, NAME_MAX),
              email,
              passwordHash: NO_PASSWORD,
              status: UserStatus.PENDING,
              verified: false,
              roles: accountRoles,
            },
            { via: 'import', actor: run.admin },
            tx,
          );
          if (invite) await this.invitations.enqueue(tx.manager, { userId: facts.userId, invitedBy: run.admin.fullName });
          return facts.userId;
        });
        run.counts.users += 1;
        if (invite) run.counts.invitations += 1;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        id = (await this.users.findByEmail(email))?.id;
        if (id === undefined) throw error;
      }
    }
    await this.remember(this.dataSource.manager, run.origin, 'user', user.sourceId, id);
    run.users.set(ownCopy(user.sourceId), id);
    return id;
  }

  /** The commenter's account (a reader: USER), by e-mail; undefined when the comment names none. */
  private async commenter(run: Run, comment: SourceComment): Promise<number | undefined> {
    const email = comment.authorEmail?.trim().toLowerCase();
    if (!email || !EMAIL.test(email)) return undefined;
    const held = run.commenters.get(email);
    if (held !== undefined) return held;
    const id = await this.user(run, { sourceId: `commenter:${email}`, fullName: comment.authorName, email }, [RoleName.USER]);
    if (id !== undefined) run.commenters.set(ownCopy(email), id);
    return id;
  }

  // ---- tags -----------------------------------------------------------------------------------

  private async tag(run: Run, tag: SourceTag): Promise<number | undefined> {
    const name = tag.name.trim().slice(0, NAME_MAX);
    const wanted = tag.slug.trim().toLowerCase();
    // A slug this site cannot use (Arabic letters, say) is derived from the name, else from the source's id.
    const slug =
      wanted.length <= 100 && SLUG_PATTERN.test(wanted)
        ? wanted
        : slugify(name, 100) || slugify(wanted, 100) || `tag-${createHash('sha256').update(tag.sourceId).digest('hex').slice(0, 8)}`;
    if (!name || !slug) {
      run.skip({ kind: 'tag', sourceId: tag.sourceId, title: tag.name || tag.slug, reason: 'The tag has no name.' });
      return undefined;
    }
    let id = await this.known(this.dataSource.manager, run.origin, 'tag', tag.sourceId);
    if (id === undefined) {
      // A tag of that slug or name here already is the same tag (WordPress's category and tag 'news',
      // or 'News' and 'news', which only case tells apart): merged, and reported unless it is the very
      // same tag (same name and slug, not claimed by another of the file's tags).
      const [same] = (await this.dataSource.query(
        `SELECT id, name, slug FROM tags WHERE slug = $1 OR lower(name) = lower($2) ORDER BY (slug = $1) DESC LIMIT 1`,
        [slug, name],
      )) as { id: number; name: string; slug: string }[];
      id = same?.id;
      const claimedBy = same ? run.tagClaims.get(same.id) : undefined;
      if (same && ((claimedBy !== undefined && claimedBy !== tag.sourceId) || same.name !== name || same.slug !== slug)) {
        run.rename({
          kind: 'tag',
          sourceId: tag.sourceId,
          from: `${name} (${tag.slug})`,
          to: `${same.name} (${same.slug})`,
          reason:
            same.slug === slug
              ? 'Merged: a tag with this slug is already here'
              : 'Merged: tag names here are unique whatever their case, and a tag of this name is already here',
        });
      }
    }
    if (id === undefined) {
      const created = await this.tags.create(
        {
          name,
          slug,
          description: tag.description?.slice(0, 500) || undefined,
          isActive: tag.active ?? true,
          color: tag.color ?? undefined,
          icon: tag.icon ?? undefined,
        },
        run.admin,
      );
      id = created.id;
      run.counts.tags += 1;
      if (slug !== wanted) run.rename({ kind: 'tag', sourceId: tag.sourceId, from: tag.slug, to: slug, reason: 'Not a valid slug here' });
    }
    await this.remember(this.dataSource.manager, run.origin, 'tag', tag.sourceId, id);
    run.tags.set(ownCopy(tag.sourceId), id);
    if (!run.tagClaims.has(id)) run.tagClaims.set(id, ownCopy(tag.sourceId));
    return id;
  }

  // ---- posts ----------------------------------------------------------------------------------

  private async post(run: Run, post: SourcePost): Promise<void> {
    const skip = (reason: string) => run.skip({ kind: 'post', sourceId: post.sourceId, title: post.title, reason });
    if (await this.known(this.dataSource.manager, run.origin, 'post', post.sourceId)) return skip('Already imported by an earlier run.');
    if (run.ownSite && (await this.alreadyHere(post))) return skip("Already on this site: the file is this site's own export.");
    if (!post.status) return skip(`Its status '${post.sourceStatus}' has no equivalent here.`);
    if (post.markdown.length > CONTENT_MAX) return skip(`Its text is longer than ${CONTENT_MAX.toLocaleString('en-US')} characters.`);

    const authorId =
      (post.authorSourceId
        ? (run.users.get(post.authorSourceId) ?? (await this.known(this.dataSource.manager, run.origin, 'user', post.authorSourceId)))
        : undefined) ?? run.admin.id;
    const tagIds: number[] = [];
    for (const sourceId of post.tagSourceIds) {
      let tagId = run.tags.get(sourceId);
      if (tagId === undefined) {
        const inline = post.inlineTags?.find((tag) => tag.sourceId === sourceId);
        if (inline) tagId = await this.tag(run, inline);
      }
      if (tagId !== undefined) tagIds.push(tagId);
    }
    let title = post.title.trim();
    if (title.length > TITLE_MAX) {
      title = `${title.slice(0, TITLE_MAX - 1)}…`;
      run.rename({
        kind: 'post',
        sourceId: post.sourceId,
        from: post.title,
        to: title,
        reason: `Title shortened to ${TITLE_MAX} characters`,
      });
    }
    // A slug in another script (Greek, Cyrillic) cannot be a slug here: written in Latin letters, its
    // original address kept as a redirect (the post's old paths).
    const wantedSlug = post.slug?.toLowerCase() ?? null;
    const slug = wantedSlug && !SLUG_PATTERN.test(wantedSlug) ? slugify(transliterate(wantedSlug)) || null : wantedSlug;
    const thumbnail = await this.featuredImage(run, post);
    // Commenters first, each account in its own transaction: the post's transaction stays small.
    const commenters = new Map<string, number>();
    for (const comment of post.comments) {
      const userId = await this.commenter(run, comment);
      if (userId !== undefined) commenters.set(comment.sourceId, userId);
    }

    let written: { id: number; slug: string; renamedFrom: string | null; oldPathsKept: number; oldPathsTaken: string[]; comments: number };
    try {
      written = await this.events.transaction(async (tx) => {
        const saved = await this.posts.createHistoric(
          tx,
          {
            title,
            slug,
            summary: post.summary ? post.summary.slice(0, 1000) : null,
            content: post.markdown,
            status: post.status!,
            authorId,
            tagIds,
            thumbnail,
            isFeatured: post.isFeatured,
            seo: post.seo,
            dates: { createdAt: post.createdAt, updatedAt: post.updatedAt, publishedAt: post.publishedAt, scheduledAt: post.scheduledAt },
            // A slug written in Latin letters: /blog/{the original} redirects too (the post page looks it up).
            oldPaths:
              slug !== wantedSlug && wantedSlug && post.status === PostStatus.PUBLISHED
                ? [...post.oldPaths, `/blog/${wantedSlug}`]
                : post.oldPaths,
            earlierSlugs: post.earlierSlugs,
          },
          run.admin,
        );
        await this.remember(tx.manager, run.origin, 'post', post.sourceId, saved.id);
        const comments = await this.writeComments(
          run,
          tx,
          { id: saved.id, status: post.status!, slug: saved.slug, author_id: authorId },
          post,
          commenters,
        );
        return { ...saved, comments };
      });
    } catch (error) {
      this.logger.warn({ err: error }, `Import ${run.job.id}: post ${post.sourceId} not written`);
      return skip(`It could not be written: ${(error as Error).message}`.slice(0, 300));
    }
    run.counts.posts += 1;
    run.counts.comments += written.comments;
    run.counts.redirects += written.oldPathsKept;
    for (const path of written.oldPathsTaken)
      run.skip({
        kind: 'post',
        sourceId: post.sourceId,
        title: path,
        reason: `This former address of '${title}' already leads to another post here, and keeps leading there.`,
      });
    if (thumbnail) run.counts.images += 1;
    if (written.renamedFrom || (post.slug && post.slug !== written.slug)) {
      const transliterated = slug !== wantedSlug && slug !== null && written.slug.startsWith(slug);
      run.rename({
        kind: 'post',
        sourceId: post.sourceId,
        from: post.slug ?? written.renamedFrom!,
        to: written.slug,
        reason: transliterated
          ? 'Slugs here are Latin letters, digits and hyphens: written in Latin letters (its former address redirects here)'
          : 'Slug already taken or not valid here',
      });
    }
    for (const change of post.changes ?? [])
      run.rename({ kind: 'post', sourceId: post.sourceId, from: change.from, to: change.to, reason: change.reason });
  }

  /**
   * Whether a post of this site's own export is here already: the post with its id, under its slug
   * (or a slug it had before). A re-import of the site's export adds nothing and moves no redirect.
   */
  private async alreadyHere(post: SourcePost): Promise<boolean> {
    const id = Number(post.sourceId);
    if (!Number.isSafeInteger(id) || id <= 0) return false;
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM posts p WHERE p.id = $1 AND (p.slug = $2 OR EXISTS (SELECT 1 FROM post_slug_history h WHERE h.post_id = p.id AND h.slug = $2))`,
      [id, post.slug ?? ''],
    )) as unknown[];
    return rows.length > 0;
  }

  /** The post's featured image from the media zip, stored as a thumbnail by the images owner; null (reported) when missing or refused. */
  private async featuredImage(run: Run, post: SourcePost): Promise<string | null> {
    if (!post.featuredImage) return null;
    const skip = (reason: string) => {
      run.skip({ kind: 'image', sourceId: post.sourceId, title: post.featuredImage!, reason });
      return null;
    };
    if (!run.media) return skip('No media archive was uploaded with the file.');
    const entry = run.media.find(post.featuredImage);
    if (!entry) return skip('Not found in the media archive.');
    let file: { path: string; size: number } | undefined;
    try {
      file = await run.media.extract(entry, MAX_IMAGE_BYTES);
      return (await this.images.uploadThumbnail(run.admin, file)).url;
    } catch (error) {
      const message = (error as { response?: { message?: string } }).response?.message ?? (error as Error).message;
      return skip(`Refused as a thumbnail: ${message}`.slice(0, 300));
    } finally {
      if (file) await run.media.release(file.path);
    }
  }

  /**
   * The post's comments in thread order (a parent before its replies), through the comment owner,
   * with their own times. A reply deeper than the spec's levels is stored as CommentsService stores
   * a reply to a level-3 comment: beside it, under the same parent. A comment whose parent was not
   * brought in hangs under the nearest ancestor that was (or at the top).
   */
  private async writeComments(
    run: Run,
    tx: Parameters<Parameters<DomainEvents['transaction']>[0]>[0],
    postRef: { id: number; status: string; slug: string; author_id: number },
    post: SourcePost,
    commenters: Map<string, number>,
  ): Promise<number> {
    const bySource = new Map(post.comments.map((comment) => [comment.sourceId, comment]));
    const placed = new Map<string, PlacedComment>();
    const order = threadOrder(post.comments);
    let written = 0;
    for (const comment of order) {
      const skip = (reason: string) =>
        run.skip({ kind: 'comment', sourceId: comment.sourceId, title: `${comment.authorName} on '${post.title}'`, reason });
      const userId = commenters.get(comment.sourceId);
      if (userId === undefined) {
        skip('The comment names no e-mail address, so it cannot belong to an account here.');
        continue;
      }
      let content = comment.content.trim();
      if (!content) {
        skip('The comment is empty.');
        continue;
      }
      if (content.length > COMMENT_MAX) {
        const shortened = `${content.slice(0, COMMENT_MAX - 1)}…`;
        run.rename({
          kind: 'comment',
          sourceId: comment.sourceId,
          from: content.slice(0, 80),
          to: shortened.slice(0, 80),
          reason: `Shortened to ${COMMENT_MAX} characters (the longest comment here)`,
        });
        content = shortened;
      }
      // The nearest ancestor that was brought in.
      let parentSource = comment.parentSourceId;
      while (parentSource && !placed.has(parentSource)) parentSource = bySource.get(parentSource)?.parentSourceId ?? null;
      const parent = parentSource ? placed.get(parentSource)! : null;
      const level = parent ? Math.min(parent.level + 1, MAX_COMMENT_LEVEL) : 0;
      const parentId = parent ? (parent.level < MAX_COMMENT_LEVEL ? parent.id : parent.parentId) : null;
      const row = await this.comments.create(
        tx,
        postRef,
        {
          postId: postRef.id,
          userId,
          parentId,
          repliedToId: parent?.id ?? null,
          level,
          content,
          holdReason: comment.approved ? null : 'IMPORTED_UNAPPROVED',
          createdAt: comment.createdAt ?? undefined,
        },
        { id: run.admin.id, name: run.admin.fullName },
      );
      placed.set(comment.sourceId, { id: row.id, level, parentId });
      await this.remember(tx.manager, run.origin, 'comment', comment.sourceId, row.id);
      written += 1;
    }
    return written;
  }
}

/**
 * The roles an imported account gets: an import never grants ADMIN (nor any role above AUTHOR): a
 * file's administrator becomes an author. USER and AUTHOR are kept; an account with none is a USER.
 */
export function importedRoles(roles: readonly RoleName[]): RoleName[] {
  const kept = roles.filter((role) => role === RoleName.AUTHOR || role === RoleName.USER);
  const demoted = roles.some((role) => role !== RoleName.AUTHOR && role !== RoleName.USER);
  const result = demoted && !kept.includes(RoleName.AUTHOR) ? [...kept, RoleName.AUTHOR] : kept;
  return result.length ? [...new Set(result)] : [RoleName.USER];
}

/** Comments ordered so that each parent comes before its replies (oldest first among siblings); a cycle's members come last. */
export function threadOrder(comments: readonly SourceComment[]): SourceComment[] {
  const ids = new Set(comments.map((comment) => comment.sourceId));
  const children = new Map<string | null, SourceComment[]>();
  for (const comment of comments) {
    const parent = comment.parentSourceId && ids.has(comment.parentSourceId) ? comment.parentSourceId : null;
    children.set(parent, [...(children.get(parent) ?? []), comment]);
  }
  const time = (comment: SourceComment) => comment.createdAt?.getTime() ?? 0;
  const ordered: SourceComment[] = [];
  const seen = new Set<string>();
  const visit = (parent: string | null) => {
    for (const comment of [...(children.get(parent) ?? [])].sort((a, b) => time(a) - time(b))) {
      if (seen.has(comment.sourceId)) continue;
      seen.add(comment.sourceId);
      ordered.push(comment);
      visit(comment.sourceId);
    }
  };
  visit(null);
  // Comments in a parent cycle (a broken export) are not reachable from the top: kept, as top-level ones.
  for (const comment of comments) if (!seen.has(comment.sourceId)) ordered.push({ ...comment, parentSourceId: null });
  return ordered;
}
