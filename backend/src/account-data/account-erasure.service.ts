import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CLOCK, Clock } from '../common/clock';
import { CommentVisibility } from '../comments/visibility/comment-visibility.service';
import type { UserErasedFacts } from '../events/domain-events';
import { DomainEvents } from '../events/domain-events.service';
import { ImageStorageService } from '../images/image-storage.service';
import { ImagesService } from '../images/images.service';
import { JobsService } from '../jobs/jobs.service';
import { LikesService } from '../likes/likes.service';
import { ModerationService } from '../moderation/moderation.service';
import { PostLifecycle } from '../posts/lifecycle/post-lifecycle.service';
import { PostsService } from '../posts/posts.service';
import { SettingsService } from '../settings/settings.service';
import { ACCOUNT_ERASURE_QUEUE, AccountErasureJob, UserLifecycleService } from '../users/user-lifecycle.service';
import { UsersService } from '../users/users.service';
import { AccountExportFiles } from './account-export-files';

/**
 * The erasure of an account whose deletion is due, run by the `account-erasure` job
 * the user lifecycle enqueued when it scheduled the deletion. One transaction, each step through
 * the owner of what it changes:
 * - its posts: the published ones are given to the 'Former author' placeholder (PostsService), or
 *   deleted when the site setting erasedAuthorPosts says 'delete'; every other post (drafts,
 *   reviews, private, archived: never public work) is deleted, each through the post lifecycle;
 * - its likes leave their posts' like_count and its reader count (LikesService);
 * - its comments are given to the '[deleted user]' placeholder, threads and counters untouched
 *   (CommentVisibility); its reports leave their comments' report_count (ModerationService);
 * - its thumbnails still shown by a kept post go to 'Former author', the rest are deleted (ImagesService);
 * - `user.deleted` is recorded and the row goes (UserLifecycleService.erase), with its sessions,
 *   roles, notifications and exports.
 * Files (avatar, thumbnails, export archives) are deleted once that has committed. A deletion
 * cancelled meanwhile, or not yet due, leaves the job nothing to do.
 */
@Injectable()
export class AccountErasureService implements OnModuleInit {
  private readonly logger = new Logger('AccountErasure');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly events: DomainEvents,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly users: UsersService,
    private readonly lifecycle: UserLifecycleService,
    private readonly postLifecycle: PostLifecycle,
    private readonly posts: PostsService,
    private readonly likes: LikesService,
    private readonly comments: CommentVisibility,
    private readonly moderation: ModerationService,
    private readonly images: ImagesService,
    private readonly storage: ImageStorageService,
    private readonly exportFiles: AccountExportFiles,
  ) {}

  onModuleInit(): void {
    this.jobs.register<AccountErasureJob>(ACCOUNT_ERASURE_QUEUE, async (job) => {
      await this.erase(job.data.userId);
    });
  }

  /** Erases the account if its deletion is due; answers what was done (undefined: nothing due). */
  async erase(userId: number): Promise<UserErasedFacts | undefined> {
    // Nothing due (cancelled, not yet, gone): no placeholder is made for nothing. Checked again under the lock below.
    const [pending] = (await this.dataSource.query(`SELECT deletion_due_at FROM users WHERE id = $1`, [userId])) as {
      deletion_due_at: Date | null;
    }[];
    if (!pending?.deletion_due_at || pending.deletion_due_at.getTime() > this.clock.now().getTime()) return undefined;
    const policy = await this.settings.get('erasedAuthorPosts');
    const formerAuthorId = await this.users.placeholder('former-author');
    const deletedUserId = await this.users.placeholder('deleted-user');
    const files = { thumbnails: [] as string[], avatar: null as string | null, exports: [] as string[] };

    const facts = await this.events.transaction(async (tx) => {
      const due = await this.lifecycle.lockDueErasure(tx, userId, this.clock.now());
      if (!due) return undefined;
      const { manager } = tx;
      const own = (await manager.query(`SELECT id, status FROM posts WHERE author_id = $1 ORDER BY id`, [userId])) as {
        id: number;
        status: string;
      }[];
      const kept = policy === 'reassign' ? own.filter((post) => post.status === 'PUBLISHED').map((post) => post.id) : [];
      const keptSet = new Set(kept);
      const deleted = own.filter((post) => !keptSet.has(post.id)).map((post) => post.id);
      for (const id of deleted) await this.postLifecycle.transition(tx, id, { type: 'delete' }, { kind: 'admin', user: null });
      await this.posts.reassignAuthor(manager, kept, formerAuthorId);

      const likesRemoved = await this.likes.removeAllOf(manager, userId);
      const commentsAnonymised = await this.comments.reassignAuthor(manager, userId, deletedUserId);
      await this.moderation.withdrawReportsOf(manager, userId);
      files.thumbnails = await this.images.releaseOwner(manager, userId, formerAuthorId);
      files.avatar = due.avatar;
      files.exports = await this.exportFiles.filesOf(manager, userId);

      const erased: UserErasedFacts = {
        userId,
        roles: due.roles,
        via: due.via,
        postsReassigned: kept.length,
        postsDeleted: deleted.length,
        commentsAnonymised,
        likesRemoved,
        imagesRemoved: files.thumbnails.length + (due.avatar ? 1 : 0),
      };
      await this.lifecycle.erase(tx, erased);
      return erased;
    });
    if (!facts) return undefined;

    await this.images.removeFiles(files.thumbnails);
    if (files.avatar) await this.storage.delete('avatars', files.avatar);
    await this.exportFiles.remove(files.exports);
    this.logger.log(
      `erased account ${userId}: ${facts.postsReassigned} posts reassigned, ${facts.postsDeleted} deleted, ${facts.commentsAnonymised} comments, ${facts.likesRemoved} likes`,
    );
    return facts;
  }
}
