import { BadRequestException, ConflictException, GoneException, Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { canonicalEmail } from '../../../isomorphic/text';
import type {
  ConfirmInfoDto,
  FollowDto,
  MyFollowsDto,
  PreferencesDto,
  SubscribeDto,
  SubscriberSummaryDto,
  UnsubscribeInfoDto,
  UpdatePreferencesDto,
} from './dto/newsletter.dto';
import type { FollowKind } from './entities/newsletter-follow.entity';
import type { SubscriberCadence, SubscriberStatus } from './entities/newsletter-subscriber.entity';
import { CONFIRM_TTL_HOURS, NewsletterConfirmMailer, parseConfirmToken } from './newsletter-confirm-mailer';
import { describeFollow, followsOf, followTarget, toFollowDto } from './newsletter-follows';
import { NewsletterLinks } from './newsletter-links';
import { NewsletterMessages } from './newsletter.messages';
import { PostRecipient, RECIPIENTS_SQL } from './newsletter-recipients';

interface SubscriberRow {
  id: number;
  email: string;
  name: string | null;
  user_id: number | null;
  status: SubscriberStatus;
  cadence: SubscriberCadence;
  digest_weekday: number | null;
  confirm_expires_at: Date | null;
}

const SUBSCRIBER_COLUMNS = 'id, email, name, user_id, status, cadence, digest_weekday, confirm_expires_at';

/** A new confirmation is not sent again to an address that got one less than this ago (the same answer is given). */
const CONFIRM_RESEND_SECONDS = 60;

/**
 * Subscribers and their follows (docs/newsletter.md): following from an account (active at once)
 * or as a visitor (double opt-in), the preferences reached by a signed link, one-click
 * unsubscribe, and who gets a post's e-mail.
 */
@Injectable()
export class SubscriptionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly links: NewsletterLinks,
    private readonly confirmMailer: NewsletterConfirmMailer,
  ) {}

  /**
   * A post's recipients (RECIPIENTS_SQL): each active, instant, non-suppressed subscriber once,
   * with the follow its e-mail's unsubscribe removes. `postId` is not needed by the query; it is
   * kept in the signature for the callers' logs.
   */
  async recipientsForPost(
    postId: number,
    authorId: number,
    tagIds: number[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<PostRecipient[]> {
    void postId;
    const rows: { subscriber_id: number; follow_id: number; email: string; name: string | null }[] = await manager.query(
      `SELECT r.subscriber_id, r.follow_id, s.email, s.name FROM (${RECIPIENTS_SQL}) r JOIN newsletter_subscribers s ON s.id = r.subscriber_id ORDER BY r.subscriber_id`,
      [authorId, tagIds, null],
    );
    return rows.map((row) => ({ subscriberId: row.subscriber_id, followId: row.follow_id, email: row.email, name: row.name }));
  }

  // ---- a signed-in reader ----

  async listOwn(user: AuthUser): Promise<MyFollowsDto> {
    const row = await this.ownRow(this.dataSource.manager, user.id);
    if (!row) return { subscriber: null, follows: [] };
    const follows = (await followsOf(this.dataSource, [row.id])).get(row.id) ?? [];
    return { subscriber: this.summary(row), follows };
  }

  /** Follows with one call (idempotent): the account's subscriber row is made, or linked and made active. */
  async followOwn(user: AuthUser, kind: FollowKind, targetId: number): Promise<FollowDto> {
    const target = await followTarget(this.dataSource, kind, targetId);
    return this.dataSource.transaction(async (manager) => {
      const subscriberId = await this.ensureAccountRow(manager, user);
      await manager.query(
        `INSERT INTO newsletter_follows (subscriber_id, kind, target_id) VALUES ($1, $2, $3) ON CONFLICT (subscriber_id, kind, target_id) DO NOTHING`,
        [subscriberId, kind, target.targetId],
      );
      const [follow]: { id: number; created_at: Date }[] = await manager.query(
        `SELECT id, created_at FROM newsletter_follows WHERE subscriber_id = $1 AND kind = $2 AND target_id = $3`,
        [subscriberId, kind, target.targetId],
      );
      return toFollowDto({
        id: follow.id,
        kind,
        target_id: target.targetId,
        name: target.name,
        slug: target.slug,
        created_at: follow.created_at,
      });
    });
  }

  /** Unfollows (idempotent: not following is no error). */
  async unfollowOwn(user: AuthUser, kind: FollowKind, targetId: number): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM newsletter_follows f USING newsletter_subscribers s
        WHERE s.id = f.subscriber_id AND s.user_id = $1 AND f.kind = $2 AND f.target_id = $3`,
      [user.id, kind, targetId],
    );
  }

  /** The reader's cadence (instant or a weekly digest on a weekday); makes the row when there is none yet. */
  async updateOwnSettings(user: AuthUser, dto: UpdatePreferencesDto): Promise<SubscriberSummaryDto> {
    const weekday = this.weekdayOf(dto);
    return this.dataSource.transaction(async (manager) => {
      const id = await this.ensureAccountRow(manager, user);
      const [[row]]: [SubscriberRow[], number] = await manager.query(
        `UPDATE newsletter_subscribers SET cadence = $2, digest_weekday = $3 WHERE id = $1 RETURNING ${SUBSCRIBER_COLUMNS}`,
        [id, dto.cadence, weekday],
      );
      return this.summary(row);
    });
  }

  /** How many active subscribers follow this author. */
  async followerCount(authorId: number): Promise<number> {
    const [row]: { count: number }[] = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM newsletter_follows f JOIN newsletter_subscribers s ON s.id = f.subscriber_id
        WHERE f.kind = 'author' AND f.target_id = $1 AND s.status = 'active'`,
      [authorId],
    );
    return row.count;
  }

  // ---- a visitor: double opt-in ----

  /**
   * A visitor asks to follow with an address. Whatever the address's state (new, pending, active,
   * unsubscribed, suppressed) the answer is the same; a new or pending row gets the follow at once
   * (a pending row is sent nothing), and a confirmation e-mail goes out (none to a suppressed
   * address, none twice within a minute). For an address already active, the follow is added
   * only when its confirmation link is used.
   */
  async subscribeVisitor(dto: SubscribeDto): Promise<void> {
    const target = await followTarget(this.dataSource, dto.kind, dto.targetId);
    const email = canonicalEmail(dto.email);
    await this.dataSource.transaction(async (manager) => {
      const [suppressed] = await manager.query(`SELECT 1 FROM newsletter_suppressions WHERE email = $1`, [email]);
      if (suppressed) return;
      await manager.query(
        `INSERT INTO newsletter_subscribers (email, name, status, source) VALUES ($1, $2, 'pending', 'page') ON CONFLICT (email) DO NOTHING`,
        [email, dto.name ?? null],
      );
      const [row]: SubscriberRow[] = await manager.query(
        `SELECT ${SUBSCRIBER_COLUMNS} FROM newsletter_subscribers WHERE email = $1 FOR UPDATE`,
        [email],
      );
      if (row.status === 'pending') {
        await manager.query(
          `INSERT INTO newsletter_follows (subscriber_id, kind, target_id) VALUES ($1, $2, $3) ON CONFLICT (subscriber_id, kind, target_id) DO NOTHING`,
          [row.id, target.kind, target.targetId],
        );
        if (dto.name && !row.name) await manager.query(`UPDATE newsletter_subscribers SET name = $2 WHERE id = $1`, [row.id, dto.name]);
      }
      const sentRecently =
        row.confirm_expires_at !== null &&
        row.confirm_expires_at.getTime() > Date.now() + CONFIRM_TTL_HOURS * 3_600_000 - CONFIRM_RESEND_SECONDS * 1000;
      if (sentRecently) return;
      // Marks the send at once (the job sets the real token and expiry), so a burst of requests queues one e-mail.
      await manager.query(`UPDATE newsletter_subscribers SET confirm_expires_at = now() + make_interval(hours => $2) WHERE id = $1`, [
        row.id,
        CONFIRM_TTL_HOURS,
      ]);
      await this.confirmMailer.enqueue(manager, { subscriberId: row.id, kind: target.kind, targetId: target.targetId });
    });
  }

  /** What a confirmation link confirms; changes nothing (mail scanners open links). */
  async confirmInfo(token: string): Promise<ConfirmInfoDto> {
    const { row, kind, targetId } = await this.confirmRow(this.dataSource.manager, token);
    const follow = await this.targetFollow(row.id, kind, targetId);
    return { email: row.email, follow, confirmed: row.status === 'active' && follow !== null && follow.id > 0, preferencesToken: null };
  }

  /** Confirms: the row becomes active and gets the follow the link names. Using the link again changes nothing. */
  async confirm(token: string): Promise<ConfirmInfoDto> {
    return this.dataSource.transaction(async (manager) => {
      const { row, kind, targetId } = await this.confirmRow(manager, token, true);
      await manager.query(
        `UPDATE newsletter_subscribers SET status = 'active', confirmed_at = COALESCE(confirmed_at, now()) WHERE id = $1`,
        [row.id],
      );
      let follow: FollowDto | null = null;
      try {
        const target = await followTarget(manager, kind, targetId);
        await manager.query(
          `INSERT INTO newsletter_follows (subscriber_id, kind, target_id) VALUES ($1, $2, $3) ON CONFLICT (subscriber_id, kind, target_id) DO NOTHING`,
          [row.id, kind, targetId],
        );
        const [made]: { id: number; created_at: Date }[] = await manager.query(
          `SELECT id, created_at FROM newsletter_follows WHERE subscriber_id = $1 AND kind = $2 AND target_id = $3`,
          [row.id, kind, targetId],
        );
        follow = toFollowDto({ id: made.id, kind, target_id: targetId, name: target.name, slug: target.slug, created_at: made.created_at });
      } catch (error) {
        if (!(error instanceof NotFoundException)) throw error;
      }
      return { email: row.email, follow, confirmed: true, preferencesToken: this.links.preferencesToken(row.id) };
    });
  }

  // ---- the preferences page (signed link) ----

  async preferences(token: string): Promise<PreferencesDto> {
    const row = await this.preferencesRow(this.dataSource.manager, token);
    return this.preferencesOf(this.dataSource.manager, row);
  }

  async updatePreferences(token: string, dto: UpdatePreferencesDto): Promise<PreferencesDto> {
    const row = await this.preferencesRow(this.dataSource.manager, token);
    const [[updated]]: [SubscriberRow[], number] = await this.dataSource.query(
      `UPDATE newsletter_subscribers SET cadence = $2, digest_weekday = $3 WHERE id = $1 RETURNING ${SUBSCRIBER_COLUMNS}`,
      [row.id, dto.cadence, this.weekdayOf(dto)],
    );
    return this.preferencesOf(this.dataSource.manager, updated);
  }

  async removeFollowByToken(token: string, followId: number): Promise<PreferencesDto> {
    const row = await this.preferencesRow(this.dataSource.manager, token);
    const [removed]: [unknown[], number] = await this.dataSource.query(
      `DELETE FROM newsletter_follows WHERE id = $1 AND subscriber_id = $2 RETURNING id`,
      [followId, row.id],
    );
    if (!removed.length) throw new NotFoundException(NewsletterMessages.FOLLOW_NOT_FOUND);
    return this.preferencesOf(this.dataSource.manager, row);
  }

  async unsubscribeAllByToken(token: string): Promise<PreferencesDto> {
    const row = await this.preferencesRow(this.dataSource.manager, token);
    return this.dataSource.transaction(async (manager) => {
      const updated = await this.unsubscribeAll(manager, row.id);
      return this.preferencesOf(manager, updated ?? row);
    });
  }

  // ---- one-click unsubscribe (signed link; RFC 8058) ----

  async unsubscribeInfo(token: string): Promise<UnsubscribeInfoDto> {
    return this.unsubscribeBy(token, false);
  }

  async unsubscribe(token: string): Promise<UnsubscribeInfoDto> {
    return this.unsubscribeBy(token, true);
  }

  // ---- internals ----

  private async unsubscribeBy(token: string, act: boolean): Promise<UnsubscribeInfoDto> {
    const claim = this.links.verifyUnsubscribeToken(token);
    if (!claim) throw new BadRequestException(NewsletterMessages.LINK_INVALID);
    if (claim.kind === 'a') {
      const [row]: SubscriberRow[] = await this.dataSource.query(`SELECT ${SUBSCRIBER_COLUMNS} FROM newsletter_subscribers WHERE id = $1`, [
        claim.id,
      ]);
      const description = 'every newsletter e-mail';
      if (!row) return { scope: 'all', description, unsubscribed: true };
      if (act && row.status !== 'unsubscribed') await this.dataSource.transaction((manager) => this.unsubscribeAll(manager, row.id));
      return { scope: 'all', description, unsubscribed: act || row.status === 'unsubscribed' };
    }
    const [follow]: { id: number; kind: FollowKind; target_id: number; name: string | null; slug: string | null; created_at: Date }[] =
      await this.dataSource.query(
        `SELECT f.id, f.kind, f.target_id, f.created_at,
                CASE f.kind WHEN 'author' THEN u.full_name WHEN 'tag' THEN t.name END AS name,
                CASE f.kind WHEN 'author' THEN u.slug WHEN 'tag' THEN t.slug END AS slug
           FROM newsletter_follows f
           LEFT JOIN users u ON f.kind = 'author' AND u.id = f.target_id
           LEFT JOIN tags t ON f.kind = 'tag' AND t.id = f.target_id
          WHERE f.id = $1`,
        [claim.id],
      );
    // Already removed (the button pressed before, or on the preferences page): nothing left to stop.
    if (!follow) return { scope: 'follow', description: 'these e-mails', unsubscribed: true };
    const description = describeFollow(toFollowDto(follow));
    if (act) await this.dataSource.query(`DELETE FROM newsletter_follows WHERE id = $1`, [follow.id]);
    return { scope: 'follow', description, unsubscribed: act };
  }

  /** Every follow goes and the row is 'unsubscribed' (a later follow starts afresh). */
  private async unsubscribeAll(manager: EntityManager, subscriberId: number): Promise<SubscriberRow | undefined> {
    await manager.query(`DELETE FROM newsletter_follows WHERE subscriber_id = $1`, [subscriberId]);
    const [[row]]: [SubscriberRow[], number] = await manager.query(
      `UPDATE newsletter_subscribers SET status = 'unsubscribed', confirm_token_hash = NULL, confirm_expires_at = NULL WHERE id = $1 RETURNING ${SUBSCRIBER_COLUMNS}`,
      [subscriberId],
    );
    return row;
  }

  private async confirmRow(
    manager: EntityManager,
    token: string,
    lock = false,
  ): Promise<{ row: SubscriberRow; kind: FollowKind; targetId: number }> {
    const parsed = parseConfirmToken(token);
    if (!parsed) throw new BadRequestException(NewsletterMessages.CONFIRM_INVALID);
    const [row]: SubscriberRow[] = await manager.query(
      `SELECT ${SUBSCRIBER_COLUMNS} FROM newsletter_subscribers WHERE confirm_token_hash = $1${lock ? ' FOR UPDATE' : ''}`,
      [parsed.hash],
    );
    if (!row) throw new BadRequestException(NewsletterMessages.CONFIRM_INVALID);
    if (!row.confirm_expires_at || row.confirm_expires_at.getTime() < Date.now())
      throw new GoneException(NewsletterMessages.CONFIRM_EXPIRED);
    return { row, kind: parsed.kind, targetId: parsed.targetId };
  }

  /** The follow a confirmation link names: the row's own when it exists (id > 0), else its target (id 0), or null when the target is gone. */
  private async targetFollow(subscriberId: number, kind: FollowKind, targetId: number): Promise<FollowDto | null> {
    let target;
    try {
      target = await followTarget(this.dataSource, kind, targetId);
    } catch {
      return null;
    }
    const [existing]: { id: number; created_at: Date }[] = await this.dataSource.query(
      `SELECT id, created_at FROM newsletter_follows WHERE subscriber_id = $1 AND kind = $2 AND target_id = $3`,
      [subscriberId, kind, targetId],
    );
    return toFollowDto({
      id: existing?.id ?? 0,
      kind,
      target_id: targetId,
      name: target.name,
      slug: target.slug,
      created_at: existing?.created_at ?? new Date(),
    });
  }

  private async preferencesRow(manager: EntityManager, token: string): Promise<SubscriberRow> {
    const id = this.links.verifyPreferencesToken(token);
    if (id === undefined) throw new BadRequestException(NewsletterMessages.LINK_INVALID);
    const [row]: SubscriberRow[] = await manager.query(`SELECT ${SUBSCRIBER_COLUMNS} FROM newsletter_subscribers WHERE id = $1`, [id]);
    if (!row) throw new NotFoundException(NewsletterMessages.SUBSCRIBER_GONE);
    return row;
  }

  private async preferencesOf(manager: EntityManager, row: SubscriberRow): Promise<PreferencesDto> {
    const follows = (await followsOf(manager, [row.id])).get(row.id) ?? [];
    return { ...this.summary(row), name: row.name, follows };
  }

  private summary(row: SubscriberRow): SubscriberSummaryDto {
    return { email: row.email, status: row.status, cadence: row.cadence, digestWeekday: row.digest_weekday };
  }

  private weekdayOf(dto: UpdatePreferencesDto): number | null {
    if (dto.cadence === 'instant') return null;
    if (dto.digestWeekday === undefined || dto.digestWeekday === null)
      throw new BadRequestException({
        message: NewsletterMessages.WEEKDAY_REQUIRED,
        errors: { digestWeekday: [NewsletterMessages.WEEKDAY_REQUIRED] },
      });
    return dto.digestWeekday;
  }

  private async ownRow(manager: EntityManager, userId: number): Promise<SubscriberRow | undefined> {
    const [row]: SubscriberRow[] = await manager.query(`SELECT ${SUBSCRIBER_COLUMNS} FROM newsletter_subscribers WHERE user_id = $1`, [
      userId,
    ]);
    return row;
  }

  /**
   * The account's subscriber row, active (a signed-in click is the consent; the address is the
   * account's, already verified): found by account, else a row of the same address (a visitor's
   * or an import's) is linked to the account, else a new one (source 'account').
   */
  private async ensureAccountRow(manager: EntityManager, user: AuthUser): Promise<number> {
    const own = await this.ownRow(manager, user.id);
    if (own) {
      if (own.status !== 'active')
        await manager.query(
          `UPDATE newsletter_subscribers SET status = 'active', confirmed_at = COALESCE(confirmed_at, now()), confirm_token_hash = NULL, confirm_expires_at = NULL WHERE id = $1`,
          [own.id],
        );
      return own.id;
    }
    const email = canonicalEmail(user.email);
    const [[linked]]: [{ id: number }[], number] = await manager.query(
      `UPDATE newsletter_subscribers SET user_id = $2, status = 'active', confirmed_at = COALESCE(confirmed_at, now()), confirm_token_hash = NULL, confirm_expires_at = NULL
        WHERE email = $1 AND user_id IS NULL RETURNING id`,
      [email, user.id],
    );
    if (linked) return linked.id;
    const [made]: { id: number }[] = await manager.query(
      `INSERT INTO newsletter_subscribers (email, name, user_id, status, source, confirmed_at)
       VALUES ($1, $2, $3, 'active', 'account', now()) ON CONFLICT DO NOTHING RETURNING id`,
      [email, user.fullName.slice(0, 100), user.id],
    );
    if (made) return made.id;
    // A parallel first follow of the same account made the row meanwhile.
    const again = await this.ownRow(manager, user.id);
    if (again) return again.id;
    throw new ConflictException(NewsletterMessages.EMAIL_TAKEN);
  }
}
