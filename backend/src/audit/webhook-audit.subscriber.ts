import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../events/domain-events.service';
import { AuditWriter } from './audit-writer';
import { AuditLinks, AuditType } from './audit.types';

/**
 * Every change to a webhook is audit-logged in its transaction: a webhook sends the site's data
 * elsewhere. The entries name the receiver by its host only (the events carry no more: a
 * receiver's path or query may hold a secret of its own); a deleted webhook's entry links nowhere.
 */
@Injectable()
export class WebhookAuditSubscriber {
  constructor(events: DomainEvents, audit: AuditWriter) {
    events.onRecorded(['webhook.created', 'webhook.updated', 'webhook.deleted'], async (event, manager) => {
      const { data } = event;
      const who = event.actor?.name ?? 'The system';
      const base = { actorId: event.actor?.id ?? null, targetType: 'webhook' as const, targetId: data.webhookId };
      switch (event.name) {
        case 'webhook.created': {
          const emails = data.includeEmails ? ', with e-mail addresses in user events' : '';
          return audit.record(manager, {
            ...base,
            type: AuditType.WEBHOOK_CREATED,
            title: 'Webhook added',
            description: `${who} added a webhook to ${data.host} for ${data.events.join(', ')}${emails}`,
            link: AuditLinks.webhooks(),
          });
        }
        case 'webhook.updated': {
          const { changed } = event.data;
          const said = [
            changed.includes('url') ? `its address (now ${data.host})` : null,
            changed.includes('events') ? `its events (now ${data.events.join(', ')})` : null,
            changed.includes('includeEmails') ? (data.includeEmails ? 'e-mail addresses on' : 'e-mail addresses off') : null,
            changed.includes('active') ? (data.active ? 'turned on' : 'turned off') : null,
            changed.includes('secret') ? 'a new secret' : null,
          ].filter(Boolean);
          return audit.record(manager, {
            ...base,
            type: AuditType.WEBHOOK_UPDATED,
            title: 'Webhook changed',
            description: `${who} changed the webhook to ${data.host}: ${said.join(', ')}`,
            link: AuditLinks.webhooks(),
          });
        }
        case 'webhook.deleted':
          return audit.record(manager, {
            ...base,
            type: AuditType.WEBHOOK_DELETED,
            title: 'Webhook deleted',
            description: `${who} deleted the webhook to ${data.host}`,
            link: null,
          });
      }
    });
  }
}
