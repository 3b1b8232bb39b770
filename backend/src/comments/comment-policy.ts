import { ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CommentsMessages } from './comments.messages';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, type AppConfig } from '../config/env';
import { activeMute, type ActiveMute } from '../users/active-mute';

/** Links as the holding rules count them: an http(s) address or one starting with 'www.'. */
const LINK = /\bhttps?:\/\/\S|\bwww\.\S/gi;
export const linkCount = (text: string): number => text.match(LINK)?.length ?? 0;

/** Why a new comment is held instead of published (docs/moderation.md), for the queue and the log. */
export type HoldReason = 'NEW_ACCOUNT_LINK' | 'DUPLICATE' | 'TOO_MANY_LINKS';

/**
 * The rules a comment meets before it is written: a muted user may not comment or edit
 * (403 naming the end, in the site's time zone as pages show it, and the reason), and the
 * spam-holding rules decide whether a new comment is HELD. Both read inside the writer's
 * transaction.
 */
@Injectable()
export class CommentPolicy {
  /** 'Nov 22, 2026, 3:04 PM GMT+7' in the site's zone (the pages' rule). */
  readonly siteTime: (date: Date) => string;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.siteTime = siteTimeFormatter(config.siteTimeZone);
  }

  /** The user's mute, when one is in force now (an expired one no longer counts). */
  activeMute(manager: EntityManager, userId: number): Promise<ActiveMute | undefined> {
    return activeMute(manager, userId);
  }

  mutedMessage(mute: ActiveMute): string {
    return mute.mutedUntil
      ? CommentsMessages.MUTED_UNTIL(this.siteTime(mute.mutedUntil), mute.reason)
      : CommentsMessages.MUTED_FOREVER(mute.reason);
  }

  /** 403 with the mute's end and reason when the user is muted. */
  async assertMayComment(manager: EntityManager, userId: number): Promise<void> {
    const mute = await this.activeMute(manager, userId);
    if (mute) throw new ForbiddenException(this.mutedMessage(mute));
  }

  /** Which holding rule the new (or edited: `editedId`, not compared with itself) comment meets, if any, in the order docs/moderation.md gives. */
  async holdReason(manager: EntityManager, userId: number, content: string, editedId?: number): Promise<HoldReason | null> {
    const { holdNewAccountHours, holdDuplicateMinutes, holdMaxLinks } = this.config.moderation;
    const links = linkCount(content);
    if (holdNewAccountHours > 0 && links > 0) {
      const young = (await manager.query(`SELECT 1 FROM users WHERE id = $1 AND created_at > now() - make_interval(hours => $2)`, [
        userId,
        holdNewAccountHours,
      ])) as unknown[];
      if (young.length) return 'NEW_ACCOUNT_LINK';
    }
    if (holdDuplicateMinutes > 0) {
      // The same text, ignoring case and runs of spaces, among the author's comments of the last minutes (IDX_comments_user_created).
      const repeated = (await manager.query(
        `SELECT 1 FROM comments WHERE user_id = $1 AND created_at > now() - make_interval(mins => $2) AND deleted_at IS NULL AND id <> $4
            AND lower(regexp_replace(content, '\\s+', ' ', 'g')) = lower(regexp_replace($3, '\\s+', ' ', 'g')) LIMIT 1`,
        [userId, holdDuplicateMinutes, content, editedId ?? 0],
      )) as unknown[];
      if (repeated.length) return 'DUPLICATE';
    }
    if (holdMaxLinks > 0 && links > holdMaxLinks) return 'TOO_MANY_LINKS';
    return null;
  }
}
