import { Inject, Injectable } from '@nestjs/common';
import { siteTimeFormatter } from '../common/site-time';
import { APP_CONFIG, AppConfig } from '../config/env';
import { DomainEvent, DomainEventName } from '../events/domain-events';
import { DomainEvents } from '../events/domain-events.service';
import { AuditWriter } from './audit-writer';
import { AuditLinks, AuditRecord, AuditType } from './audit.types';

const POST_AUDITED = [
  'post.created',
  'post.published',
  'post.unpublished',
  'post.status_changed',
  'post.rejected',
  'post.scheduled',
  'post.rescheduled',
  'post.unscheduled',
  'post.deleted',
  'post.preview_link_created',
  'post.preview_link_revoked',
] as const satisfies readonly DomainEventName[];

type PostAudited = DomainEvent<(typeof POST_AUDITED)[number]>;

/**
 * The audit log's entries for post events, written in the change's transaction (a change that
 * rolls back leaves no entry). Titles and sentences as the admin's Recent Activity shows them;
 * times in the site's zone, named.
 */
@Injectable()
export class PostAuditSubscriber {
  private readonly siteTime: (date: Date) => string;

  constructor(events: DomainEvents, audit: AuditWriter, @Inject(APP_CONFIG) config: AppConfig) {
    this.siteTime = siteTimeFormatter(config.siteTimeZone);
    events.onRecorded(POST_AUDITED, async (event, manager) => {
      const entry = this.entryOf(event);
      if (entry) await audit.record(manager, entry);
    });
  }

  /** The entry an event writes; undefined for the moves the log does not list (e.g. DRAFT → PRIVATE). */
  entryOf(event: PostAudited): AuditRecord | undefined {
    const { data } = event;
    const base = { actorId: event.actor?.id ?? null, targetType: 'post' as const, targetId: data.postId };
    const title = `"${data.title}"`;
    const at = (iso: string) => this.siteTime(new Date(iso));
    switch (event.name) {
      case 'post.created':
        return {
          ...base,
          type: AuditType.POST_CREATED,
          title: 'New post created',
          description: `${event.actor?.name ?? 'Someone'} created ${title}`,
          link: AuditLinks.adminPost(data.postId),
          details: { status: data.status },
        };
      case 'post.published': {
        const { via } = event.data;
        const description =
          via === 'review'
            ? `${title} was approved and published`
            : via === 'schedule'
              ? `${title} was published at its scheduled time`
              : `${title} was published`;
        const details =
          via === 'schedule'
            ? { from: event.data.previousStatus, via, scheduledAt: event.data.scheduledAt, scheduledBy: event.data.scheduledBy }
            : via === 'review'
              ? {
                  from: event.data.previousStatus,
                  via,
                  reviewId: event.data.reviewId,
                  ...(event.data.droppedSchedule ? { droppedSchedule: event.data.droppedSchedule } : {}),
                }
              : { from: event.data.previousStatus, via };
        return {
          ...base,
          type: AuditType.POST_PUBLISHED,
          title: 'Post published',
          description,
          link: AuditLinks.publicPost(data.slug),
          details,
        };
      }
      case 'post.unpublished':
      case 'post.status_changed':
        if (data.status !== 'ARCHIVED') return undefined;
        return {
          ...base,
          type: AuditType.POST_ARCHIVED,
          title: 'Post archived',
          description: `${title} was archived`,
          link: AuditLinks.adminPost(data.postId),
          details: { from: event.data.previousStatus },
        };
      case 'post.rejected':
        return {
          ...base,
          type: AuditType.POST_REJECTED,
          title: 'Post rejected',
          description: `${title} was rejected: ${event.data.reason}`,
          link: AuditLinks.adminPost(data.postId),
          details: {
            reviewId: event.data.reviewId,
            reason: event.data.reason,
            ...(event.data.droppedSchedule ? { droppedSchedule: event.data.droppedSchedule } : {}),
          },
        };
      case 'post.scheduled':
        return {
          ...base,
          type: AuditType.POST_SCHEDULED,
          title: 'Post scheduled',
          description: `${title} was approved and scheduled for ${at(event.data.publishAt)}`,
          link: AuditLinks.adminPost(data.postId),
          details: {
            from: event.data.previousStatus,
            via: 'review',
            reviewId: event.data.reviewId,
            publishAt: event.data.publishAt,
            requestedPublishAt: event.data.requestedPublishAt,
          },
        };
      case 'post.rescheduled':
        return {
          ...base,
          type: AuditType.POST_RESCHEDULED,
          title: 'Post rescheduled',
          description: `${title} will be published at ${at(event.data.publishAt)} instead of ${at(event.data.previousPublishAt)}`,
          link: AuditLinks.adminPost(data.postId),
          details: { from: event.data.previousPublishAt, to: event.data.publishAt },
        };
      case 'post.unscheduled': {
        const { via, scheduledAt, to } = event.data;
        const description =
          via === 'cancel'
            ? `${title} will not be published at ${at(scheduledAt)}; it is back in the review queue`
            : `${title} will not be published at ${at(scheduledAt)}: its status was changed to ${to}`;
        return {
          ...base,
          type: AuditType.POST_SCHEDULE_CANCELLED,
          title: 'Post schedule cancelled',
          description,
          link: AuditLinks.adminPost(data.postId),
          details: via === 'cancel' ? { scheduledAt, via } : { scheduledAt, via, to },
        };
      }
      case 'post.deleted':
        return {
          ...base,
          type: AuditType.POST_DELETED,
          title: 'Post deleted',
          description: `${title} was deleted by ${event.actor?.name ?? 'the system'}`,
          details: { status: data.status, authorId: data.authorId, slug: data.slug },
        };
      case 'post.preview_link_created':
        return {
          ...base,
          type: AuditType.PREVIEW_LINK_CREATED,
          title: 'Preview link created',
          description: `${event.actor?.name ?? 'Someone'} shared a preview of ${title} until ${at(event.data.expiresAt)}`,
          link: AuditLinks.adminPost(data.postId),
          details: { linkId: event.data.linkId, expiresAt: event.data.expiresAt },
        };
      case 'post.preview_link_revoked':
        return {
          ...base,
          type: AuditType.PREVIEW_LINK_REVOKED,
          title: 'Preview link revoked',
          description: `${event.actor?.name ?? 'Someone'} revoked a preview link of ${title}`,
          link: AuditLinks.adminPost(data.postId),
          details: { linkId: event.data.linkId },
        };
    }
  }
}
