import { HttpException } from '@nestjs/common';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import type { AuthUser } from '../src/auth/auth-user';
import { CommentsService } from '../src/comments/comments.service';
import { countedComment } from '../src/comments/visibility/counted-comment';
import { ModerationService } from '../src/moderation/moderation.service';
import { RoleName } from '../src/users/roles';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

/**
 * Comment visibility: after any sequence of writes, replies, held writes, edits that
 * hold, hides (by an admin or the post's author), approvals, restores and deletes (by the author,
 * an admin in the thread, or the moderation queue), run through the services against the real
 * database, every counter the moves keep equals its aggregate: the post's comment_count is the
 * COUNT of its counted comments, each comment's reply_count the COUNT of the VISIBLE rows right
 * under it (placeholders included), after every move.
 */
jest.setTimeout(120_000);

const HELD_TEXT = 'see http://a.test http://b.test http://c.test';

type Who = 0 | 1 | 2;
type Step =
  | { kind: 'comment'; who: Who; held: boolean }
  | { kind: 'reply'; target: number; who: Who; held: boolean }
  | { kind: 'edit'; target: number; held: boolean }
  | { kind: 'hide'; target: number; byAdmin: boolean }
  | { kind: 'restore'; target: number }
  | { kind: 'delete'; target: number; by: 'owner' | 'admin' | 'queue' };

const who = fc.constantFrom<Who>(0, 1, 2);
const target = fc.nat({ max: 40 });
// Replies weigh most: deep threads are where placeholders and their removal up the thread happen.
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('comment' as const), who, held: fc.boolean() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('reply' as const), target, who, held: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), target, held: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('hide' as const), target, byAdmin: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), target }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('delete' as const),
      target,
      by: fc.constantFrom<'owner' | 'admin' | 'queue'>('owner', 'admin', 'queue'),
    }),
  },
);

describe('Comment visibility: counters equal their aggregates after random moves (fast-check)', () => {
  let t: TestApp;
  let db: DataSource;
  let comments: CommentsService;
  let moderation: ModerationService;
  let adminUser: TestUser;
  let admin: AuthUser;
  let postAuthor: AuthUser;
  let writers: AuthUser[];

  const asCaller = (user: TestUser, role: RoleName): AuthUser => ({
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    roles: [role],
    role,
  });

  beforeAll(async () => {
    // More than two links hold a comment: a held write or edit is one text away.
    t = await createTestApp({ env: { HOLD_MAX_LINKS: '2' } });
    db = t.app.get(DataSource);
    comments = t.app.get(CommentsService);
    moderation = t.app.get(ModerationService);
    let authorUser: TestUser, readerA: TestUser, readerB: TestUser;
    [adminUser, authorUser, readerA, readerB] = await Promise.all([createAdmin(t), createAuthor(t), createReader(t), createReader(t)]);
    admin = asCaller(adminUser, RoleName.ADMIN);
    postAuthor = asCaller(authorUser, RoleName.AUTHOR);
    writers = [asCaller(readerA, RoleName.USER), asCaller(readerB, RoleName.USER), postAuthor];
  });
  afterAll(() => t.close());

  async function publishedPost(): Promise<number> {
    const res = await t.http
      .post(api('/blog/posts'))
      .set(adminUser.auth)
      .send({ title: `Counted ${uid()}`, content: 'Body', status: 'PUBLISHED' });
    if (res.status !== 201) throw new Error(`post failed: ${res.status}`);
    await db.query('UPDATE posts SET author_id = $2 WHERE id = $1', [res.body.data.id, postAuthor.id]);
    return res.body.data.id as number;
  }

  /** Runs one step; a refused move (404, 403, 409: a deleted, hidden or visible target) changes nothing and is skipped. */
  async function run(postId: number, written: { id: number; by: AuthUser }[], s: Step): Promise<void> {
    // Counted from the newest (small numbers are likelier): replies to replies make deep threads.
    const pick = (n: number) => written[written.length - 1 - (n % Math.max(written.length, 1))];
    const text = (held: boolean) => (held ? `${HELD_TEXT} ${uid()}` : `Plain ${uid()}`);
    try {
      switch (s.kind) {
        case 'comment': {
          const { comment } = await comments.create({ postId, content: text(s.held) }, writers[s.who]);
          written.push({ id: comment.id, by: writers[s.who] });
          break;
        }
        case 'reply': {
          const parent = pick(s.target);
          if (!parent) return;
          const { comment } = await comments.create({ postId, content: text(s.held), parentId: parent.id }, writers[s.who]);
          written.push({ id: comment.id, by: writers[s.who] });
          break;
        }
        case 'edit': {
          const edited = pick(s.target);
          if (edited) await comments.update(edited.id, text(s.held), edited.by);
          break;
        }
        case 'hide': {
          const hidden = pick(s.target);
          if (hidden) await moderation.hide(hidden.id, 'Off topic', s.byAdmin ? admin : postAuthor);
          break;
        }
        case 'restore': {
          const restored = pick(s.target);
          if (restored) await moderation.restore(restored.id, admin);
          break;
        }
        case 'delete': {
          const deleted = pick(s.target);
          if (!deleted) return;
          if (s.by === 'queue') await moderation.remove(deleted.id, admin);
          else await comments.remove(deleted.id, s.by === 'owner' ? deleted.by : admin);
          break;
        }
      }
    } catch (error) {
      if (!(error instanceof HttpException) || error.getStatus() >= 500) throw error;
    }
  }

  /** The stored counters that differ from their aggregates (none when the moves kept them). */
  async function driftOf(postId: number): Promise<unknown[]> {
    const posts = (await db.query(
      `SELECT p.id, p.comment_count AS stored, (SELECT count(*)::int FROM comments c WHERE c.post_id = p.id AND ${countedComment('c')}) AS counted
         FROM posts p WHERE p.id = $1`,
      [postId],
    )) as { id: number; stored: number; counted: number }[];
    const replies = (await db.query(
      `SELECT c.id, c.reply_count AS stored, (SELECT count(*)::int FROM comments r WHERE r.parent_id = c.id AND r.moderation = 'VISIBLE') AS counted
         FROM comments c WHERE c.post_id = $1`,
      [postId],
    )) as { id: number; stored: number; counted: number }[];
    return [...posts.map((row) => ({ post: row.id, ...row })), ...replies.map((row) => ({ comment: row.id, ...row }))].filter(
      (row) => row.stored !== row.counted,
    );
  }

  /**
   * One sequence through every move and the placeholders' cases, run first (then the random
   * ones): a thread four deep, a held reply under a comment deleted into a placeholder, its
   * approval, a hide and restore, an edit that holds, the queue's delete removing the held reply
   * and the placeholder above it, a held comment hidden by the post's author, a placeholder at the top.
   */
  const everyMove: Step[] = [
    { kind: 'comment', who: 0, held: false },
    { kind: 'reply', target: 0, who: 1, held: false },
    { kind: 'reply', target: 0, who: 0, held: false },
    { kind: 'reply', target: 0, who: 2, held: true },
    { kind: 'delete', target: 1, by: 'owner' },
    { kind: 'restore', target: 0 },
    { kind: 'hide', target: 2, byAdmin: true },
    { kind: 'restore', target: 2 },
    { kind: 'edit', target: 0, held: true },
    { kind: 'delete', target: 0, by: 'queue' },
    { kind: 'comment', who: 1, held: true },
    { kind: 'hide', target: 0, byAdmin: false },
    { kind: 'delete', target: 4, by: 'admin' },
  ];

  it('keeps comment_count and reply_count equal to COUNT(*) with the counted predicate', async () => {
    let moves = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 16 }), async (steps) => {
        const postId = await publishedPost();
        const written: { id: number; by: AuthUser }[] = [];
        // After every move, not only at the end: a wrong delta undone by a later move is caught too.
        for (const [index, s] of steps.entries()) {
          await run(postId, written, s);
          expect({ after: index, drift: await driftOf(postId) }).toEqual({ after: index, drift: [] });
        }
        moves += steps.length;
      }),
      { numRuns: 30, examples: [[everyMove]] },
    );
    expect(moves).toBeGreaterThan(30 * 6);
  });

  it('the hand-written sequence reaches every move (so the property covers them)', async () => {
    const postId = await publishedPost();
    const written: { id: number; by: AuthUser }[] = [];
    for (const s of everyMove) await run(postId, written, s);
    const events = (await db.query(
      `SELECT name, data->>'visibility' AS visibility, data->>'placeholder' AS placeholder, data->>'via' AS via FROM domain_events
        WHERE subject_type = 'comment' AND (data->>'postId')::int = $1 ORDER BY id`,
      [postId],
    )) as { name: string; visibility: string; placeholder: string | null; via: string | null }[];
    expect(events.map((e) => [e.name, e.visibility, e.placeholder ?? e.via ?? ''].join(' '))).toEqual([
      'comment.created VISIBLE ',
      'comment.created VISIBLE ',
      'comment.created VISIBLE ',
      'comment.created HELD ',
      'comment.deleted VISIBLE true',
      'comment.approved VISIBLE ',
      'comment.hidden HIDDEN ',
      'comment.restored VISIBLE ',
      'comment.updated HELD ',
      'comment.deleted HELD false',
      'comment.created HELD ',
      'comment.hidden HIDDEN ',
      'comment.deleted VISIBLE true',
    ]);
    expect(await driftOf(postId)).toEqual([]);
    // The queue's delete took the emptied placeholder above it too: two rows of the thread are left (the top placeholder and its reply), and the hidden comment.
    expect(((await db.query('SELECT count(*)::int AS n FROM comments WHERE post_id = $1', [postId])) as { n: number }[])[0].n).toBe(3);
  });
});
