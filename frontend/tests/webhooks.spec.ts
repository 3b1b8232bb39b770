import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { brokenWords } from './layout-checks';

/**
 * /admin/integrations: an admin adds a webhook through the form (URL, an event),
 * sees its secret, sends a test event that reaches a receiver on loopback (the server runs with
 * WEBHOOK_ALLOW_PRIVATE=1), reads the delivery log and redelivers; axe at desktop and 320 px.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const received: { delivery: string | undefined; type: string }[] = [];
let server: http.Server;
let receiverUrl: string;
let flakyUrl: string;
/** Requests to the flaky receiver, which answers the first with HTTP 500 and the rest with 200. */
let flakyHits = 0;

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url?.startsWith('/flaky-')) {
        flakyHits += 1;
        res.statusCode = flakyHits === 1 ? 500 : 200;
        return res.end(flakyHits === 1 ? 'oops' : 'fine now');
      }
      received.push({
        delivery: req.headers['x-inkwell-delivery'] as string | undefined,
        type: (JSON.parse(body) as { type: string }).type,
      });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook-${unique}`;
  flakyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/flaky-${unique}`;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('an admin creates a webhook, sends a test event, reads the log and redelivers', async ({ asAdmin: page, hydrated }) => {
  await page.goto('/admin/integrations');
  await hydrated('WebhooksManager');
  await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Integrations' })).toHaveAttribute('aria-current', 'page');

  await page.getByRole('button', { name: 'Add webhook' }).click();
  await page.getByLabel('Payload URL').fill(receiverUrl);
  await page.getByRole('checkbox', { name: /A post is deleted/ }).check();
  await page.getByRole('button', { name: 'Create webhook' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Webhook created. Copy its secret to verify the signatures.' })).toBeVisible();
  await expect(page.getByLabel('Signing secret')).toHaveValue(/^whsec_/);
  await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
  await expectNoSeriousViolations(page, '/admin/integrations (form, desktop)');

  await page.getByRole('button', { name: 'Delivery log', exact: true }).click();
  await page.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Test event delivered. HTTP 200' })).toBeVisible();
  const log = page.getByRole('table');
  await expect(log.getByRole('row')).toHaveCount(2);
  await expect(log.getByRole('cell', { name: 'webhook.test', exact: true })).toBeVisible();
  await expect(log.getByRole('cell', { name: 'thanks', exact: true })).toBeVisible();
  expect(received).toEqual([{ delivery: expect.any(String), type: 'webhook.test' }]);

  await log.getByRole('button', { name: /^Redeliver webhook\.test of / }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Redelivery queued.' })).toBeVisible();
  await expect.poll(() => received.length, { timeout: 10_000 }).toBe(2);
  expect(received[1].delivery).toBe(received[0].delivery);

  await page.setViewportSize({ width: 320, height: 720 });
  await expectNoSeriousViolations(page, '/admin/integrations (delivery log, 320 px)');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a new webhook can be tested beside its secret; each attempt in the log says its own result', async ({ asAdmin: page, hydrated }) => {
  await page.goto('/admin/integrations');
  await hydrated('WebhooksManager');
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await page.getByLabel('Payload URL').fill(flakyUrl);
  await page.getByRole('checkbox', { name: /A tag is created/ }).check();
  await page.getByRole('button', { name: 'Create webhook' }).click();
  await expect(page.getByLabel('Signing secret')).toHaveValue(/^whsec_/);

  // Right after the secret: 'Send test event' (the receiver answers this first one with a 500).
  const form = page.getByRole('region', { name: 'Edit webhook' });
  await form.getByRole('button', { name: 'Send test event' }).click();
  await expect(form.getByRole('alert').filter({ hasText: 'HTTP 500' })).toBeVisible();
  await expectNoSeriousViolations(page, '/admin/integrations (secret and test event, desktop)');

  // Redelivered, the delivery succeeds; the first attempt still reads as failed.
  await form.getByRole('button', { name: 'Delivery log', exact: true }).click();
  const log = page.getByRole('region', { name: 'Delivery log table' });
  await log.getByRole('button', { name: /^Redeliver webhook\.test of / }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Redelivery queued.' })).toBeVisible();
  await expect.poll(() => flakyHits, { timeout: 10_000 }).toBe(2);
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(log.getByRole('row')).toHaveCount(3, { timeout: 1_000 });
  }).toPass({ timeout: 10_000 });
  const failed = log.getByRole('row').filter({ hasText: 'HTTP 500' });
  await expect(failed).toContainText('Failed');
  await expect(failed).not.toContainText('Delivered');
  await expect(log.getByRole('row').filter({ hasText: 'HTTP 200' })).toContainText('Delivered');

  // On phones the log keeps its columns and scrolls in its frame: no word broken, no row a tower.
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await brokenWords(log.locator('table')), `${width} px`).toEqual([]);
    const heights = await log.locator('tbody tr').evaluateAll((rows) => rows.map((row) => Math.round(row.getBoundingClientRect().height)));
    expect(Math.max(...heights), `${width} px: the tallest row`).toBeLessThan(100);
    await expectNoSeriousViolations(page, `/admin/integrations (delivery log, ${width} px)`);
  }
});
