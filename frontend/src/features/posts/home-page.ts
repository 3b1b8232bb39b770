/**
 * The home page's data, shared by its two addresses (/ and /home, spec 001 §2): the Latest
 * Stories and, for a signed-in reader, the greeting's recent likes and comments; 503 when the
 * stories could not be read.
 */
import type { ApiClient } from '../../lib/api/client';
import type { SessionUser } from '../../lib/session';
import { load } from '../../lib/settle';
import { readerApi } from '../reader';

interface HomePageContext {
  locals: { api: ApiClient; user?: SessionUser };
  response: { status?: number };
}

export async function loadHomePage(Astro: HomePageContext) {
  const user = Astro.locals.user;
  const [stories, recentLikes, recentComments] = await Promise.all([
    load(Astro.locals.api.GET('/api/v1/blog/posts/public/latest-stories')),
    user ? readerApi(Astro.locals.api).recentLikes(3) : undefined,
    user ? readerApi(Astro.locals.api).recentComments(3) : undefined,
  ]);
  if (!stories.ok) Astro.response.status = 503;
  const reader = user && recentLikes && recentComments ? { fullName: user.fullName, recentLikes, recentComments } : undefined;
  return { stories, signedIn: !!user, reader };
}
