/** The webhook administration's calls (typed from openapi.json). */
import { browserApi } from '../../lib/api/client';
import { unwrap, unwrapWithMessage } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';

export type WebhookSummary = components['schemas']['WebhookSummaryDto'];
export type Webhook = components['schemas']['WebhookDto'];
export type WebhookAttempt = components['schemas']['WebhookAttemptDto'];
export type WebhookInput = components['schemas']['WebhookCreateDto'];
export type WebhookChange = components['schemas']['WebhookUpdateDto'];
export type WebhookEventName = components['schemas']['WebhookEventName'];

const id = (webhookId: number) => ({ params: { path: { id: webhookId } } });

export const webhooksApi = {
  list: () => unwrap(browserApi().GET('/api/v1/admin/webhooks', {})),
  get: (webhookId: number) => unwrap(browserApi().GET('/api/v1/admin/webhooks/{id}', id(webhookId))),
  create: (body: WebhookInput) => unwrapWithMessage(browserApi().POST('/api/v1/admin/webhooks', { body })),
  update: (webhookId: number, body: WebhookChange) =>
    unwrapWithMessage(browserApi().PUT('/api/v1/admin/webhooks/{id}', { ...id(webhookId), body })),
  remove: (webhookId: number) => unwrap(browserApi().DELETE('/api/v1/admin/webhooks/{id}', id(webhookId))),
  test: (webhookId: number) => unwrapWithMessage(browserApi().POST('/api/v1/admin/webhooks/{id}/test', id(webhookId))),
  attempts: (webhookId: number) => unwrap(browserApi().GET('/api/v1/admin/webhooks/{id}/attempts', id(webhookId))),
  redeliver: (webhookId: number, deliveryId: number) =>
    unwrapWithMessage(
      browserApi().POST('/api/v1/admin/webhooks/{id}/deliveries/{deliveryId}/redeliver', {
        params: { path: { id: webhookId, deliveryId } },
      }),
    ),
};
