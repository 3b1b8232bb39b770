import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from './fixtures';
import {
  credentialsOf,
  loadImages,
  ROLES,
  routePath,
  ROUTES,
  seedWalkData,
  settle,
  showVisibleIslands,
  WIDTHS,
  type WalkData,
} from './walk-routes';

/**
 * `npm run screenshots` (scripts/screenshots.mjs): a full-page PNG of every route × role of
 * walk-routes.ts at each width, in the light and the dark theme, into SCREENSHOTS_DIR as
 * <role>/<route>--<width>-<theme>.png. Not a check: pictures for people to look at (the layout
 * walk is the check). Only the Playwright project 'screenshots' runs this file.
 */

const THEMES = ['light', 'dark'] as const;
const folder = process.env.SCREENSHOTS_DIR;

/** A route as a file name: '/admin/posts/{postId}/edit' → 'admin-posts-postId-edit', '/' → 'home'. */
const fileName = (template: string) =>
  template
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60) || 'home';

test.describe.configure({ mode: 'parallel' });

let data: WalkData;
test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(60_000);
  data = await seedWalkData(baseURL!, playwright);
});

for (const role of ROLES) {
  test(`screenshots: every ${role} route`, async ({ page, signIn, hydrated }) => {
    if (!folder) throw new Error('SCREENSHOTS_DIR is not set: run npm run screenshots');
    test.setTimeout(600_000);
    const who = credentialsOf(role, data);
    if (who) await signIn(who);
    mkdirSync(join(folder, role), { recursive: true });
    for (const template of ROUTES[role]) {
      await page.setViewportSize({ width: WIDTHS[0], height: 900 });
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(routePath(template, data));
      await hydrated();
      // A full-page picture shows what is below the fold too: its client:visible islands (comments, charts) hydrated.
      await showVisibleIslands(page, hydrated);
      await page.evaluate(() => window.scrollTo(0, 0));
      await loadImages(page);
      for (const theme of THEMES) {
        // The theme script follows the system's scheme when no theme is stored; setting the class as
        // well covers a page without the script's change listener.
        await page.emulateMedia({ colorScheme: theme });
        await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), theme === 'dark');
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 900 });
          await settle(page);
          await page.screenshot({
            path: join(folder, role, `${fileName(template)}--${width}-${theme}.png`),
            fullPage: true,
            animations: 'disabled',
            caret: 'hide',
          });
        }
      }
    }
  });
}
