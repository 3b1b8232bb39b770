/**
 * The home page's data, shared by its two addresses (/ and /home, docs/requirements.md#screen-home): the Latest
 * Stories; 503 when they could not be read. The page is the same for everyone: a
 * signed-in reader's greeting comes from the personal fragment (pages/fragments/session.astro).
 */
import type { ApiClient } from '../../lib/api/client';
import { load } from '../../lib/settle';

interface HomePageContext {
  locals: { api: ApiClient };
  response: { status?: number };
}

export async function loadHomePage(Astro: HomePageContext) {
  const stories = await load(Astro.locals.api.GET('/api/v1/blog/posts/public/latest-stories'));
  if (!stories.ok) Astro.response.status = 503;
  return { stories };
}
