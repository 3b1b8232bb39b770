/**
 * Personal API tokens on /account: the page reads the list through the visitor's
 * session (`Astro.locals.api`); the island creates and revokes through the browser client.
 */
import type { ApiClient } from '../../lib/api/client';
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { Schema } from '../../lib/api/schema';
import { load } from '../../lib/settle';

export type ApiTokenSummary = Schema<'ApiTokenDto'>;
export type ApiTokenCreated = Schema<'ApiTokenCreatedDto'>;
export type ApiTokenInput = Schema<'ApiTokenCreateDto'>;

export const apiTokensApi = (api: ApiClient) => ({
  list: () => load(api.GET('/api/v1/account/tokens', {})),
});

export const apiTokenActions = {
  list: () => unwrap(browserApi().GET('/api/v1/account/tokens', {})),
  create: (body: ApiTokenInput) => unwrap(browserApi().POST('/api/v1/account/tokens', { body })),
  revoke: (id: number) => unwrap(browserApi().DELETE('/api/v1/account/tokens/{id}', { params: { path: { id } } })),
};
