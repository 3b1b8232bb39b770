import { expect, test as base, type Cookie, type Locator, type Page } from '@playwright/test';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from './admin-api';

/**
 * What every browser spec imports `test` and `expect` from: Playwright's own, with the fixtures
 * the journeys share.
 * - `signIn(who, onPage = page)` signs a page's browser context in (a worker signs each account in
 *   once and hands the same session to its later tests: see `signInContext`).
 * - `asAdmin`: the test's page, signed in as the administrator scripts/browser-tests.mjs seeds.
 * - `hydrated(at?)` waits until the island at `at` has hydrated; without `at`, the personal
 *   fragment of a signed-in reader's public page and every island of the page that hydrates by
 *   itself (client:load, client:idle: all but client:visible ones).
 */

export { expect };

export interface Credentials {
  email: string;
  password: string;
}

/** The administrator scripts/browser-tests.mjs seeds (it passes the credentials in the environment). */
export const ADMIN: Credentials = { email: ADMIN_EMAIL, password: ADMIN_PASSWORD };

const HYDRATION_TIMEOUT_MS = 20_000;

/** The islands of a component, by the name its file starts with ('LikeButton', 'PostEditor'). */
export function island(page: Page, component: string): Locator {
  return page.locator(`astro-island[component-url*="/${component}."]`);
}

/** An account's session as a worker's earlier sign-in left it: the cookies the login answer set. */
interface SavedSession {
  cookies: Cookie[];
  signedInAt: number;
}
/** The sessions this worker (one process) signed in, by e-mail (signInContext). */
const sessions = new Map<string, SavedSession>();

/**
 * How long a worker hands out the same session. The access token lives 15 minutes and the islands
 * renew it silently once 5 or fewer remain, which replaces the refresh token: a saved copy must
 * never get that old, or a later test would present the replaced refresh token (a reuse, which
 * ends the whole session family).
 */
const SESSION_REUSE_MS = 5 * 60_000;

/**
 * Signs `page`'s browser context in. The first time in a worker (or once the saved session is too
 * old or no longer accepted, e.g. after a test signed it out) through the API: the login answer's
 * cookies land in the context and are saved. After that the saved cookies are put in the context
 * and checked with one profile read: a login costs a bcrypt hash, several hundred ms on a busy
 * machine, and most tests sign the same few accounts in.
 */
async function signInContext(page: Page, who: Credentials): Promise<void> {
  const saved = sessions.get(who.email);
  if (saved && Date.now() - saved.signedInAt < SESSION_REUSE_MS) {
    await page.context().addCookies(saved.cookies);
    if ((await page.request.get('/api/v1/users/profile')).status() === 200) return;
    sessions.delete(who.email);
  }
  const signedInAt = Date.now();
  const login = await page.request.post('/api/v1/auth/login', { data: { email: who.email, password: who.password } });
  expect(login.status(), await login.text()).toBe(200);
  const names = new Set(
    login
      .headersArray()
      .filter((header) => header.name.toLowerCase() === 'set-cookie')
      .map((header) => header.value.split('=')[0].trim()),
  );
  sessions.set(who.email, { cookies: (await page.context().cookies()).filter((cookie) => names.has(cookie.name)), signedInAt });
}

/**
 * Runs in the page: how many of `islands` have not hydrated yet. Astro drops an island's `ssr`
 * attribute as it hands the island to React, before React has rendered anything (the React renderer
 * hydrates in a transition, in a later task); React marks each element it hydrates with its fiber,
 * the outermost last, and commits in that same task. So an island has hydrated once `ssr` is gone
 * and its top elements carry a fiber. A client:visible island hydrates only once shown: a pending
 * one is scrolled into view. When none is pending, one message round trip lets the work React
 * scheduled at the commit (the mount effects, such as the one enabling an island's buttons) run.
 */
async function pendingIslands(islands: Element[]): Promise<number> {
  const RESOURCE_TAGS = new Set(['LINK', 'META', 'STYLE', 'SCRIPT', 'TEMPLATE']);
  const hydratedByReact = (element: Element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'));
  const pending = islands.filter((island) => {
    if (island.hasAttribute('ssr')) {
      if (island.getAttribute('client') === 'visible') (island.firstElementChild ?? island).scrollIntoView();
      return true;
    }
    // React's server render may put resource hints (an image's <link rel="preload">) among the
    // island's children; React hoists those to <head> and never hydrates them in place.
    return ![...island.children].filter((child) => !RESOURCE_TAGS.has(child.tagName)).every(hydratedByReact);
  });
  if (pending.length === 0) {
    await new Promise<void>((done) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => done();
      channel.port2.postMessage(undefined);
    });
  }
  return pending.length;
}

/** Waits until the island holding `at` (its first match; a component name: its first island) has hydrated; without `at`, every island that hydrates by itself. */
async function islandsHydrated(page: Page, at?: Locator | string): Promise<void> {
  let islands: Locator;
  if (at === undefined) {
    // A public page a signed-in reader opens gets its personal parts (and their islands) from the
    // personal fragment (components/PersonalParts.astro): wait until it has put them in place.
    await expect
      .poll(
        () =>
          page.evaluate(
            () =>
              !document.documentElement.hasAttribute('data-signed-in') ||
              !document.querySelector('[data-personal]') ||
              document.documentElement.hasAttribute('data-personal'),
          ),
        {
          message: 'the personal fragment has not been put in place yet',
          timeout: HYDRATION_TIMEOUT_MS,
        },
      )
      .toBe(true);
    islands = page.locator('astro-island:not([client="visible"])');
  } else {
    islands = (typeof at === 'string' ? island(page, at) : at).first().locator('xpath=ancestor-or-self::astro-island[1]');
    await expect(islands, `the island of ${at} is on the page`).toBeAttached({ timeout: HYDRATION_TIMEOUT_MS });
  }
  await expect
    .poll(() => islands.evaluateAll(pendingIslands), {
      message: `islands not hydrated yet${at === undefined ? '' : ` (${at})`}`,
      timeout: HYDRATION_TIMEOUT_MS,
    })
    .toBe(0);
}

export interface BrowserFixtures {
  signIn: (who: Credentials, onPage?: Page) => Promise<void>;
  asAdmin: Page;
  /** A component name and the default read the test's page; a Locator brings its own, so a helper working on another page passes one. */
  hydrated: (at?: Locator | string) => Promise<void>;
}

export const test = base.extend<BrowserFixtures>({
  signIn: async ({ page }, use) => {
    await use((who, onPage = page) => signInContext(onPage, who));
  },
  asAdmin: async ({ page }, use) => {
    await signInContext(page, ADMIN);
    await use(page);
  },
  hydrated: async ({ page }, use) => {
    await use((at) => islandsHydrated(page, at));
  },
});
