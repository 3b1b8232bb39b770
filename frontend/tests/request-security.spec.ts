import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * In Chromium: a page of another origin cannot sign the visitor out (the cross-origin
 * write rule, backend/src/common/same-origin.ts), and the pages run under a script-src without
 * 'unsafe-inline' (inline scripts by hash only; violations are reported and fail the run), and a style-src
 * without it (the island style by hash, only table alignment as style attributes).
 */

/** A page served from another loopback port: another origin of the same site, so SameSite=Lax cookies go along. */
async function otherOrigin(html: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise<void>((done) => server.close(() => done())) };
}

const profileStatus = async (page: Page) => (await page.request.get('/api/v1/users/profile')).status();
const hasSessionCookie = async (page: Page) => (await page.context().cookies()).some((cookie) => cookie.name === 'inkwell_access');

test.describe('cross-origin writes', () => {
  test('a form on another origin that posts to logout leaves the visitor signed in', async ({ asAdmin: page, baseURL }) => {
    const attacker = await otherOrigin(
      `<!doctype html><title>Win a prize</title><form method="post" action="${baseURL}/api/v1/auth/logout"></form><script>document.forms[0].submit()</script>`,
    );
    try {
      const answer = page.waitForResponse(`${baseURL}/api/v1/auth/logout`);
      await page.goto(attacker.url);
      expect((await answer).status()).toBe(403);
      await expect(page.locator('body')).toContainText('This request came from another site and was refused.');
    } finally {
      await attacker.close();
    }
    expect(await hasSessionCookie(page)).toBe(true);
    expect(await profileStatus(page)).toBe(200);
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/admin$/);
  });

  test("another origin's fetch with the visitor's cookies cannot sign them out", async ({ asAdmin: page, baseURL }) => {
    const attacker = await otherOrigin(
      `<!doctype html><title>waiting</title><script>fetch(${JSON.stringify(`${baseURL}/api/v1/auth/logout`)}, { method: 'POST', mode: 'no-cors', credentials: 'include' }).finally(() => { document.title = 'sent'; });</script>`,
    );
    try {
      const sent = page.waitForRequest((request) => request.url() === `${baseURL}/api/v1/auth/logout` && request.method() === 'POST');
      await page.goto(attacker.url);
      await sent;
      await expect(page).toHaveTitle('sent');
    } finally {
      await attacker.close();
    }
    expect(await hasSessionCookie(page)).toBe(true);
    expect(await profileStatus(page)).toBe(200);
  });

  test("the app's own pages still sign out (Chromium's Origin is the app's)", async ({ asAdmin: page }) => {
    await page.goto('/');
    const status = await page.evaluate(
      async () => (await fetch('/api/v1/auth/logout', { method: 'POST', headers: { 'X-Request-Timestamp': String(Date.now()) } })).status,
    );
    expect(status).toBe(200);
    expect(await profileStatus(page)).toBe(401);
  });
});

test.describe('Content-Security-Policy', () => {
  /** Written by the server (CSP_REPORT_LOG); scripts/browser-tests.mjs passes its path. */
  const reportLog = process.env.CSP_REPORT_LOG;
  /** Reports carrying this marker are this test's own and do not fail the run (scripts/browser-tests.mjs). */
  const PROBE = 'csp-probe';

  test("script-src has no 'unsafe-inline'; the pages' own inline scripts run, an injected one neither runs nor goes unreported", async ({
    page,
  }) => {
    const response = await page.goto('/');
    const policy = response?.headers()['content-security-policy'] ?? '';
    const scriptSrc =
      policy
        .split(';')
        .map((directive) => directive.trim())
        .find((directive) => directive.startsWith('script-src ')) ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    // The no-flash theme script (inline, allowed by its hash) ran before paint.
    await expect(page.locator('html')).toHaveAttribute('data-theme', /^(light|dark|system)$/);

    const blocked = await page.evaluate(async (marker) => {
      const violation = new Promise<string>((done) =>
        document.addEventListener('securitypolicyviolation', (event) => done(event.violatedDirective), { once: true }),
      );
      const script = document.createElement('script');
      script.textContent = `/* ${marker} */ window.cspProbeRan = true;`;
      document.body.append(script);
      return { directive: await violation, ran: (window as { cspProbeRan?: boolean }).cspProbeRan === true };
    }, PROBE);
    expect(blocked).toEqual({ directive: expect.stringMatching(/^script-src/), ran: false });

    test.skip(!reportLog, 'CSP_REPORT_LOG is not set: run through npm run test:browser');
    await expect
      .poll(() => readFileSync(reportLog as string, { encoding: 'utf8', flag: 'a+' }).includes(PROBE), {
        message: 'the violation report reached the server',
      })
      .toBe(true);
  });

  test("style-src has no 'unsafe-inline': key pages apply every style of their own with no violation; an injected style attribute is blocked", async ({
    asAdmin: page,
    hydrated,
  }) => {
    // The only style attributes pages carry: a Markdown table's column alignment ('unsafe-hashes' + hashes).
    const unique = Date.now().toString(36);
    const created = await page.request.post('/api/v1/blog/posts', {
      data: {
        title: `Aligned table ${unique}`,
        slug: `aligned-table-${unique}`,
        content: '| left | right |\n|:-----|------:|\n| one | two |',
        status: 'PUBLISHED',
      },
      headers: { 'X-Request-Timestamp': String(Date.now()) },
    });
    expect(created.status(), await created.text()).toBe(201);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as { cspViolations?: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${location.pathname}: ${event.violatedDirective} ${event.sample}`),
      );
    });

    const response = await page.goto('/');
    const policy = response?.headers()['content-security-policy'] ?? '';
    const styleSrc =
      policy
        .split(';')
        .map((directive) => directive.trim())
        .find((directive) => directive.startsWith('style-src ')) ?? '';
    expect(styleSrc).toMatch(/^style-src 'self' 'sha256-[A-Za-z0-9+/]+=*' 'unsafe-hashes' /);
    expect(styleSrc).not.toContain("'unsafe-inline'");

    const violations: string[] = [];
    // Public pages, a post with the table, the editor, the admin dashboard (chart, bars) and tags (colours).
    for (const path of ['/', '/blog', `/blog/aligned-table-${unique}`, '/author/posts/new', '/admin', '/admin/tags']) {
      await page.goto(path);
      await hydrated();
      if (path.startsWith('/blog/aligned')) await expect(page.getByRole('cell', { name: 'two' })).toHaveCSS('text-align', 'right');
      if (path === '/admin') await expect(page.locator('astro-island').first()).toHaveCSS('display', 'contents');
      violations.push(...(await page.evaluate(() => (window as { cspViolations?: string[] }).cspViolations ?? [])));
    }
    expect(violations).toEqual([]);

    const injected = await page.evaluate(async (marker) => {
      const violation = new Promise<string>((done) =>
        document.addEventListener('securitypolicyviolation', (event) => done(event.violatedDirective), { once: true }),
      );
      const host = document.createElement('div');
      host.innerHTML = `<p style="--${marker}: 1; color: rgb(1, 2, 3)">probe</p>`;
      document.body.append(host);
      return { directive: await violation, colour: getComputedStyle(host.firstElementChild as Element).color };
    }, PROBE);
    expect(injected.directive).toMatch(/^style-src/);
    expect(injected.colour).not.toBe('rgb(1, 2, 3)');
  });
});
