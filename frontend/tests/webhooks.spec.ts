import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { expectNoSeriousViolations } from './a11y';

/**
 * /admin/integrations: an admin adds a webhook through the form (URL, an event),
 * sees its secret, sends a test event that reaches a receiver on loopback (the server runs with
 * WEBHOOK_ALLOW_PRIVATE=1), reads the delivery log and redelivers; axe at desktop and 320 px.
 */

const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const received: { delivery: string | undefined; type: string }[] = [];
let server: http.Server;
let receiverUrl: string;

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ delivery: req.headers['x-inkwell-delivery'] as string | undefined, type: (JSON.parse(body) as { type: string }).type });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook-${unique}`;
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
