import { Injectable } from '@nestjs/common';
import type { DomainEvent, TagFacts } from '../events/domain-events';
import { DomainEvents } from '../events/domain-events.service';
import { AuditWriter } from './audit-writer';
import { AuditLinks, AuditRecord, AuditType } from './audit.types';

type TagEvent = DomainEvent<'tag.created' | 'tag.updated' | 'tag.activated' | 'tag.deactivated' | 'tag.deleted'>;

/** Type, title and sentence of each tag event's entry. */
const ENTRIES: Record<TagEvent['name'], { type: AuditType; title: string; describe: (tag: TagFacts) => string }> = {
  'tag.created': { type: AuditType.TAG_CREATED, title: 'New tag created', describe: (tag) => `Tag "${tag.name}" was created` },
  'tag.updated': { type: AuditType.TAG_UPDATED, title: 'Tag updated', describe: (tag) => `Tag "${tag.name}" was updated` },
  'tag.activated': { type: AuditType.TAG_ACTIVATED, title: 'Tag activated', describe: (tag) => `Tag "${tag.name}" was activated` },
  'tag.deactivated': { type: AuditType.TAG_DEACTIVATED, title: 'Tag deactivated', describe: (tag) => `Tag "${tag.name}" was deactivated` },
  'tag.deleted': { type: AuditType.TAG_DELETED, title: 'Tag deleted', describe: (tag) => `Tag "${tag.name}" was deleted` },
};

/** The audit entry of every tag change, written in the change's transaction (a deleted tag's entry links nowhere). */
@Injectable()
export class TagAuditSubscriber {
  constructor(events: DomainEvents, audit: AuditWriter) {
    events.onRecorded(Object.keys(ENTRIES) as TagEvent['name'][], (event, manager) => audit.record(manager, tagEntry(event as TagEvent)));
  }
}

function tagEntry(event: TagEvent): AuditRecord {
  const { type, title, describe } = ENTRIES[event.name];
  const tag = event.data;
  return {
    type,
    actorId: event.actor?.id ?? null,
    targetType: 'tag',
    targetId: tag.tagId,
    title,
    description: describe(tag),
    link: event.name === 'tag.deleted' ? null : AuditLinks.tag(tag.tagId),
    details: event.name === 'tag.updated' ? { slug: tag.slug, changed: event.data.changed } : { slug: tag.slug },
  };
}
