import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';

/**
 * Browser journeys against a running Inkwell (scripts/browser-tests.mjs starts one and sets
 * BASE_URL). Uses Debian's Chromium: `npx playwright install` needs the network, which is blocked.
 */
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  throw new Error(`Chromium not found at ${executablePath}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
}
const isCI = !!process.env.CI;

/**
 * Journeys that check a site-wide "newest N" list (/admin's Recent Activity shows the newest 10
 * entries, the home page's Latest Stories the newest posts) run alone, after the others (scripts/browser-tests.mjs runs the two projects in turn):
 * another worker's writes at the same moment push their entries out of the list. The publishing
 * journeys move the server's test clock, which every worker's scheduling reads.
 */
const ALONE = /(admin-journey|publishing-review|reading)\.spec\.ts$/;
/** `npm run screenshots` (scripts/screenshots.mjs): pictures, not checks; never part of the journeys. */
const SCREENSHOTS = /\.capture\.ts$/;
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath,
    // No outside network here: without these Chromium keeps dialling out and floods refused connections.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  },
};

export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results',
  fullyParallel: false,
  forbidOnly: isCI,
  retries: isCI ? 1 : 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // durations-reporter.ts: per-test times for CI's slowest-files table (only when TEST_DURATIONS_FILE is set).
  reporter: [['list'], ['./tests/durations-reporter.ts']],
  use: {
    baseURL: process.env.BASE_URL || 'http://127.0.0.1:3000',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: ALONE, use: chromium },
    { name: 'chromium-alone', testMatch: ALONE, workers: 1, use: chromium },
    { name: 'screenshots', testMatch: SCREENSHOTS, use: chromium },
  ],
});
