/**
 * 'Where you're signed in': the page reads the sessions and the alert switch on the
 * server (`Astro.locals.api`); the island signs sessions out and saves the switch in the browser.
 */
import { browserApi, type ApiClient } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';
import type { DataOf } from '../../lib/api/schema';
import { settleRead } from '../../lib/settle';

export type AccountSession = DataOf<'/api/v1/account/sessions'>[number];
export type SignInAlerts = DataOf<'/api/v1/account/sessions/alerts'>;

export const accountSessionsApi = (api: ApiClient) => ({
  /** The list and the switch, settled together: the section shows both or its error state. */
  overview: () =>
    settleRead(async () => {
      const [sessions, alerts] = await Promise.all([
        unwrap(api.GET('/api/v1/account/sessions', {})),
        unwrap(api.GET('/api/v1/account/sessions/alerts', {})),
      ]);
      return { sessions, alerts };
    }),
});

export const sessionActions = {
  list: () => unwrap(browserApi().GET('/api/v1/account/sessions', {})),
  signOut: (id: string) => unwrap(browserApi().DELETE('/api/v1/account/sessions/{id}', { params: { path: { id } } })),
  signOutOthers: () => unwrap(browserApi().DELETE('/api/v1/account/sessions', {})),
  saveAlerts: (body: SignInAlerts) => unwrap(browserApi().PUT('/api/v1/account/sessions/alerts', { body })),
};
