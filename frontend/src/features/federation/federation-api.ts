/** The federation admin page's calls (typed from openapi.json). */
import { browserApi } from '../../lib/api/client';
import { unwrap, unwrapWithMessage } from '../../lib/api/errors';
import type { components } from '@inkwell/client/schema';

export type FederationOverview = components['schemas']['FederationOverviewDto'];
export type FederationDelivery = components['schemas']['FederationDeliveryDto'];
export type FederationBlock = components['schemas']['FederationBlockDto'];

export const federationApi = {
  overview: () => unwrap(browserApi().GET('/api/v1/admin/federation', {})),
  setEnabled: (enabled: boolean) => unwrapWithMessage(browserApi().PUT('/api/v1/admin/federation', { body: { enabled } })),
  deliveries: (failed: boolean) =>
    unwrap(browserApi().GET('/api/v1/admin/federation/deliveries', { params: { query: { failed: failed ? 'true' : 'false' } } })),
  blocks: () => unwrap(browserApi().GET('/api/v1/admin/federation/blocks', {})),
  block: (kind: 'instance' | 'actor', value: string) =>
    unwrapWithMessage(browserApi().POST('/api/v1/admin/federation/blocks', { body: { kind, value } })),
  unblock: (id: number) => unwrap(browserApi().DELETE('/api/v1/admin/federation/blocks/{id}', { params: { path: { id } } })),
};
