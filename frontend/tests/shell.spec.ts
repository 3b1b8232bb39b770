import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * The public shell every page shares: home, theme toggle, 404, the under-construction notice
 * and its Go Back button, About.
 */

const UNDER_CONSTRUCTION_HEADING = 'Page Under Development';
const UNDER_CONSTRUCTION_TEXT = 'This feature is under development. Please come back later.';

async function expectUnderConstruction(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  expect(response?.status(), `status of ${path}`).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(UNDER_CONSTRUCTION_HEADING);
  await expect(page.getByText(UNDER_CONSTRUCTION_TEXT, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expect(page).toHaveTitle(`${UNDER_CONSTRUCTION_HEADING} · Inkwell`);
}

const htmlIsDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

test.describe('home', () => {
  test('renders the hero, and View All Posts leads to /blog', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('Inkwell');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stories worth reading, from writers worth following');
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const viewAll = page.getByRole('link', { name: 'View All Posts' });
    await expect(viewAll).toHaveAttribute('href', '/blog');
    await viewAll.click();
    await expect(page).toHaveURL('/blog');
  });

  test('/home shows the same home page', async ({ page }) => {
    const response = await page.goto('/home');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stories worth reading, from writers worth following');
    await expect(page.getByRole('link', { name: 'View All Posts' })).toHaveAttribute('href', '/blog');
  });
});

test.describe('theme toggle', () => {
  test.use({ colorScheme: 'light' });

  test('cycles System → Light → Dark, the dark class follows, and the choice survives a reload without a flash', async ({ page }) => {
    // Records the <html> classes when parsing ends: after the inline theme script, before any
    // module script of the page's bundle runs (those run between 'interactive' and DOMContentLoaded).
    await page.addInitScript(() => {
      document.addEventListener('readystatechange', () => {
        if (document.readyState === 'interactive') {
          (window as unknown as { __darkBeforeBundle: boolean }).__darkBeforeBundle = document.documentElement.classList.contains('dark');
        }
      });
    });

    await page.goto('/');
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    await expect(toggle).toHaveAttribute('aria-label', 'Theme: System');
    expect(await htmlIsDark(page)).toBe(false);

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-label', 'Theme: Light');
    await expect(page.locator('html')).not.toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-label', 'Theme: Dark');
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');

    // The page prefers light, so the dark class after a reload can only come from the stored choice.
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { __darkBeforeBundle?: boolean }).__darkBeforeBundle)).toBe(true);
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    await expect(toggle).toHaveAttribute('aria-label', 'Theme: Dark');

    // Another page of the site starts dark too.
    await page.goto('/about');
    expect(await page.evaluate(() => (window as unknown as { __darkBeforeBundle?: boolean }).__darkBeforeBundle)).toBe(true);
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAttribute('aria-label', 'Theme: Dark');

    // One more click returns to System: the stored choice is gone and the light preference wins.
    await page.getByRole('button', { name: /^Theme:/ }).click();
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAttribute('aria-label', 'Theme: System');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    expect(await htmlIsDark(page)).toBe(false);
  });

  test('System follows the operating system preference, live and at load', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAttribute('aria-label', 'Theme: System');
    expect(await htmlIsDark(page)).toBe(false);

    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);

    await page.reload();
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    await expect(page.getByRole('button', { name: /^Theme:/ })).toHaveAttribute('aria-label', 'Theme: System');
  });
});

test.describe('not found', () => {
  test('an unknown path answers 404 with the Page Not Found page', async ({ page }) => {
    const response = await page.goto('/no-such-page/really-not-here');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByText('The page you are looking for does not exist or has been moved.', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveAttribute('href', '/');
    await expect(page).toHaveTitle('Page Not Found · Inkwell');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  });
});

test.describe('under construction', () => {
  test('/privacy shows the notice, and Go Back returns to the previous page', async ({ page }) => {
    await page.goto('/');
    await expectUnderConstruction(page, '/privacy');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stories worth reading, from writers worth following');
  });

  test('Go Back after following the footer link returns to the page the reader came from', async ({ page }) => {
    await page.goto('/about');
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Privacy' }).click();
    await expect(page).toHaveURL('/privacy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(UNDER_CONSTRUCTION_HEADING);
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL('/about');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Inkwell');
  });

  for (const path of ['/reading-list/anything', '/admin/analytics', '/terms', '/contact']) {
    test(`${path} shows the notice`, async ({ page }) => {
      await expectUnderConstruction(page, path);
    });
  }
});

test.describe('about', () => {
  test('renders', async ({ page }) => {
    const response = await page.goto('/about');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('About · Inkwell');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Inkwell');
    for (const name of ['Readers', 'Authors', 'Editors']) {
      await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
    }
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'About' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByRole('link', { name: 'Read the blog' })).toHaveAttribute('href', '/blog');
  });
});
