import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { diffLines, diffWordsWithSpace } from 'diff';
import { DataSource, EntityManager } from 'typeorm';
import { toPage } from '../common/pagination/page';
import { DiffPartDto, ReviewDiffDto, RevisionDiffDto, RevisionDto, RevisionPageDto, RevisionSummaryDto } from './dto/revision.dto';
import { PostSeo, RevisionKind } from './entities/post-revision.entity';
import { wordCountOf } from '../common/markdown';
import { RevisionsMessages } from './revisions.messages';

/** Consecutive saves by one editor within this long of the revision's first save update it instead of adding one. */
export const REVISION_MERGE_WINDOW = '5 minutes';
/** Unpinned revisions kept per post; older ones are dropped first. Pinned ones are always kept. */
export const MAX_UNPINNED_REVISIONS = 100;

/** A post's current text as a revision keeps it: the posts row `p` (with its tags) after the save. */
const TEXT = `p.title, p.summary, p.content,
  COALESCE((SELECT jsonb_agg(t.slug ORDER BY t.slug) FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id), '[]'::jsonb),
  p.thumbnail,
  jsonb_build_object('metaTitle', p.meta_title, 'metaDescription', p.meta_description, 'canonicalUrl', p.canonical_url, 'noindex', p.noindex, 'socialImage', p.social_image)`;
const TEXT_COLUMNS = 'title, summary, content, tag_slugs, thumbnail, seo';
const SNAPSHOT = `${TEXT}, p.word_count`;
const SNAPSHOT_COLUMNS = `${TEXT_COLUMNS}, word_count`;

/** The newest revision of post $1 and whether it holds exactly the post's current text. */
const NEWEST_WITH_SAMENESS = `
  SELECT r.id, r.kind, r.pinned,
         ((r.title, r.summary, r.content, r.tag_slugs, r.thumbnail, r.seo) IS NOT DISTINCT FROM (${TEXT})) AS same
    FROM post_revisions r JOIN posts p ON p.id = r.post_id
   WHERE r.post_id = $1
   ORDER BY r.created_at DESC, r.id DESC LIMIT 1`;

interface NewestRevision {
  id: number;
  kind: RevisionKind;
  pinned: boolean;
  same: boolean;
}

/** A revision row under the DTO's names (the editor as JSON, or null when the account is gone). */
interface RevisionRow {
  id: number;
  postId: number;
  kind: RevisionKind;
  pinned: boolean;
  title: string;
  wordCount: number;
  editor: { id: number; fullName: string } | null;
  createdAt: Date;
  updatedAt: Date;
  summary?: string | null;
  content?: string;
  tagSlugs?: string[];
  thumbnail?: string | null;
  seo?: PostSeo;
}

const SUMMARY_COLUMNS = `r.id, r.post_id AS "postId", r.kind, r.pinned, r.title, r.word_count AS "wordCount",
  CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'fullName', u.full_name) END AS editor,
  r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;
const FULL_COLUMNS = `${SUMMARY_COLUMNS}, r.summary, r.content, r.tag_slugs AS "tagSlugs", r.thumbnail, r.seo`;

/** The text two sides of a comparison hold. */
interface ComparedText {
  title: string;
  summary: string | null;
  content: string;
  tagSlugs: string[];
}

/**
 * A post's revisions: kept inside the save's own transaction (the post row is locked by then, so
 * saves of one post queue and merging is race-free), listed, read and compared. Who may see them
 * is PostsService's rule (as editing); this service trusts its callers.
 */
@Injectable()
export class RevisionsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * After a save wrote post `postId` (inside its transaction): keeps its text. Nothing when the
   * newest revision already holds it (a status-only save); the newest revision is updated when it is
   * an unpinned SAVE by the same editor begun within the merge window; else a new one, and the oldest
   * unpinned ones beyond MAX_UNPINNED_REVISIONS go.
   */
  async record(manager: EntityManager, postId: number, editorId: number, kind: RevisionKind.SAVE | RevisionKind.RESTORED): Promise<void> {
    if (kind === RevisionKind.SAVE) {
      // One statement on autosave's path: the merge, when the newest revision qualifies.
      const [merged] = (await manager.query(
        `UPDATE post_revisions r SET (${SNAPSHOT_COLUMNS}) = ROW(${SNAPSHOT}), updated_at = now()
           FROM posts p
          WHERE p.id = $1 AND r.id = (SELECT id FROM post_revisions WHERE post_id = $1 ORDER BY created_at DESC, id DESC LIMIT 1)
            AND r.kind = 'SAVE' AND NOT r.pinned AND r.editor_id = $2 AND now() - r.created_at < interval '${REVISION_MERGE_WINDOW}'
          RETURNING r.id`,
        [postId, editorId],
      )) as [unknown[], number];
      if (merged.length) return;
      if ((await this.newest(manager, postId))?.same) return;
    }
    await this.insert(manager, postId, editorId, kind, false);
    await manager.query(
      `DELETE FROM post_revisions WHERE id IN (
         SELECT id FROM post_revisions WHERE post_id = $1 AND NOT pinned ORDER BY created_at DESC, id DESC OFFSET $2)`,
      [postId, MAX_UNPINNED_REVISIONS],
    );
  }

  /**
   * Pins the post's current text as `kind` (submission, approval, rejection), inside the caller's
   * transaction: the newest revision when it holds that text and is not yet pinned, else a new
   * pinned row (when the newest is pinned with another kind, or the text was never kept).
   */
  async pin(
    manager: EntityManager,
    postId: number,
    kind: RevisionKind.SUBMITTED | RevisionKind.APPROVED | RevisionKind.REJECTED,
    actorId: number,
  ): Promise<void> {
    const newest = await this.newest(manager, postId);
    if (newest?.same && newest.pinned && newest.kind === kind) return;
    if (newest?.same && !newest.pinned) {
      await manager.query(`UPDATE post_revisions SET pinned = true, kind = $2, updated_at = now() WHERE id = $1`, [newest.id, kind]);
      return;
    }
    await this.insert(manager, postId, actorId, kind, true);
  }

  /** Newest first, `size` per page. */
  async list(postId: number, page: number, size: number): Promise<RevisionPageDto> {
    // The total comes with the page (a post has at most 100 unpinned revisions and its pins); a page past the end counts alone.
    const rows = (await this.dataSource.query(
      `SELECT ${SUMMARY_COLUMNS}, count(*) OVER ()::int AS total FROM post_revisions r LEFT JOIN users u ON u.id = r.editor_id
        WHERE r.post_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT $2 OFFSET $3`,
      [postId, size, page * size],
    )) as (RevisionRow & { total: number })[];
    const total =
      rows[0]?.total ??
      (
        (await this.dataSource.query(`SELECT count(*)::int AS total FROM post_revisions WHERE post_id = $1`, [postId])) as {
          total: number;
        }[]
      )[0].total;
    return toPage(rows.map(toSummary), total, page, size);
  }

  /** One revision of the post with its text; 404 when the post has no such revision. */
  async get(postId: number, revisionId: number): Promise<RevisionDto> {
    return toRevision(await this.findOrFail(postId, revisionId));
  }

  /**
   * A word-level diff (jsdiff diffWordsWithSpace on the Markdown) from revision `fromId` to
   * revision `toId`, or to `current` (the post as saved now) when `toId` is undefined.
   */
  async compare(postId: number, fromId: number, toId: number | undefined, current: ComparedText): Promise<RevisionDiffDto> {
    const from = await this.findOrFail(postId, fromId);
    const to = toId === undefined ? null : await this.findOrFail(postId, toId);
    return diffOf(
      from,
      to,
      to ? { title: to.title, summary: to.summary ?? null, content: to.content ?? '', tagSlugs: to.tagSlugs ?? [] } : current,
    );
  }

  /** The post's last rejection (reason, reviewer, time) and the diff since; both null when it was never rejected. */
  async reviewDiff(postId: number): Promise<ReviewDiffDto> {
    const [rejection] = (await this.dataSource.query(
      `SELECT COALESCE(r.rejection_reason, '') AS reason, r.created_at AS "reviewedAt",
              CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'fullName', u.full_name) END AS reviewer
         FROM post_reviews r LEFT JOIN users u ON u.id = r.reviewer_id
        WHERE r.post_id = $1 AND r.status = 'REJECTED'
        ORDER BY r.created_at DESC, r.id DESC LIMIT 1`,
      [postId],
    )) as { reason: string; reviewedAt: Date; reviewer: { id: number; fullName: string } | null }[];
    if (!rejection) return { rejection: null, diff: null };
    return {
      rejection: { reason: rejection.reason, reviewer: rejection.reviewer, reviewedAt: new Date(rejection.reviewedAt).toISOString() },
      diff: await this.sinceLastRejection(postId),
    };
  }

  /** From the revision pinned at the post's last rejection to its newest revision; null when there is no such pin. */
  private async sinceLastRejection(postId: number): Promise<RevisionDiffDto | null> {
    const rows = (await this.dataSource.query(
      `(SELECT ${FULL_COLUMNS}, 0 AS side FROM post_revisions r LEFT JOIN users u ON u.id = r.editor_id
         WHERE r.post_id = $1 AND r.kind = 'REJECTED' ORDER BY r.created_at DESC, r.id DESC LIMIT 1)
       UNION ALL
       (SELECT ${FULL_COLUMNS}, 1 AS side FROM post_revisions r LEFT JOIN users u ON u.id = r.editor_id
         WHERE r.post_id = $1 ORDER BY r.created_at DESC, r.id DESC LIMIT 1)`,
      [postId],
    )) as (RevisionRow & { side: number })[];
    const from = rows.find((row) => row.side === 0);
    const to = rows.find((row) => row.side === 1);
    if (!from || !to) return null;
    return diffOf(from, to, { title: to.title, summary: to.summary ?? null, content: to.content ?? '', tagSlugs: to.tagSlugs ?? [] });
  }

  private async newest(manager: EntityManager, postId: number): Promise<NewestRevision | undefined> {
    const [row] = (await manager.query(NEWEST_WITH_SAMENESS, [postId])) as NewestRevision[];
    return row;
  }

  private async insert(manager: EntityManager, postId: number, editorId: number, kind: RevisionKind, pinned: boolean): Promise<void> {
    await manager.query(
      `INSERT INTO post_revisions (post_id, editor_id, kind, pinned, ${SNAPSHOT_COLUMNS})
       SELECT p.id, $2, $3, $4, ${SNAPSHOT} FROM posts p WHERE p.id = $1`,
      [postId, editorId, kind, pinned],
    );
  }

  private async findOrFail(postId: number, revisionId: number): Promise<RevisionRow> {
    const [row] = (await this.dataSource.query(
      `SELECT ${FULL_COLUMNS} FROM post_revisions r LEFT JOIN users u ON u.id = r.editor_id WHERE r.id = $1 AND r.post_id = $2`,
      [revisionId, postId],
    )) as RevisionRow[];
    if (!row) throw new NotFoundException(RevisionsMessages.revisionNotFound(revisionId));
    return row;
  }
}

function toSummary(row: RevisionRow): RevisionSummaryDto {
  return {
    id: row.id,
    postId: row.postId,
    kind: row.kind,
    pinned: row.pinned,
    title: row.title,
    wordCount: row.wordCount,
    editor: row.editor,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function toRevision(row: RevisionRow): RevisionDto {
  return {
    ...toSummary(row),
    summary: row.summary ?? null,
    content: row.content ?? '',
    tagSlugs: row.tagSlugs ?? [],
    thumbnail: row.thumbnail ?? null,
    seo: row.seo ?? { metaTitle: null, metaDescription: null, canonicalUrl: null, noindex: false, socialImage: null },
  };
}

/**
 * A word-level diff of two Markdown texts: lines (paragraphs) first with jsdiff's diffLines, then
 * diffWordsWithSpace within each changed run, line by line when a run has as many lines before as
 * after (paragraphs edited in place). The words of unchanged paragraphs are never compared: a
 * long post with a few edits costs little, and a paragraph edit cannot pair with words elsewhere.
 */
export function wordDiff(before: string, after: string): DiffPartDto[] {
  const out: DiffPartDto[] = [];
  const push = (value: string, added: boolean, removed: boolean) => {
    if (!value) return;
    const last = out.at(-1);
    if (last && last.added === added && last.removed === removed) last.value += value;
    else out.push({ value, added, removed });
  };
  const words = (a: string, b: string) =>
    diffWordsWithSpace(a, b).forEach((change) => push(change.value, !!change.added, !!change.removed));
  const runs = diffLines(before, after);
  for (let i = 0; i < runs.length; i += 1) {
    const run = runs[i];
    const next = runs[i + 1];
    if (run.removed && next?.added) {
      const a = run.value.split(/(?<=\n)/);
      const b = next.value.split(/(?<=\n)/);
      if (a.length === b.length) a.forEach((line, k) => words(line, b[k]));
      else words(run.value, next.value);
      i += 1;
    } else {
      push(run.value, !!run.added, !!run.removed);
    }
  }
  return out;
}

const parts = wordDiff;

function diffOf(from: RevisionRow, to: RevisionRow | null, toText: ComparedText): RevisionDiffDto {
  const content = parts(from.content ?? '', toText.content);
  const fromTags = new Set(from.tagSlugs ?? []);
  const toTags = new Set(toText.tagSlugs);
  return {
    from: toSummary(from),
    to: to ? toSummary(to) : null,
    title: parts(from.title, toText.title),
    summary: parts(from.summary ?? '', toText.summary ?? ''),
    content,
    tags: { added: [...toTags].filter((slug) => !fromTags.has(slug)), removed: [...fromTags].filter((slug) => !toTags.has(slug)) },
    stats: {
      addedWords: content.filter((part) => part.added).reduce((sum, part) => sum + wordCountOf(part.value), 0),
      removedWords: content.filter((part) => part.removed).reduce((sum, part) => sum + wordCountOf(part.value), 0),
    },
  };
}
