import type { DynamicModule } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { createApp } from '../../src/app.factory';
import type { FrontendModuleOptions } from '../../src/frontend/frontend.module';
import { loadConfig } from '../../src/config/env';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Rate limits on (off by default so tests are not throttled by each other). */
  throttle?: boolean;
  env?: Record<string, string>;
  extraModules?: NonNullable<DynamicModule['imports']>;
  /** Another database than the run's (fault tests stop and restart their own PostgreSQL). */
  databaseUrl?: string;
  /** Mount the frontend layer with a page handler and client folder of the test's own. */
  frontend?: FrontendModuleOptions;
}

/** The real app on the run's PostgreSQL (global-setup), with its own DATA_DIR for uploads. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is not set: run the tests through jest (global-setup starts PostgreSQL)');
  const dataDir = mkdtempSync(join(tmpdir(), 'inkwell-app-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    THROTTLE_DISABLED: options.throttle ? '0' : '1',
    // Every test user is a new account, and suites repeat texts: the spam-holding rules would hold
    // their comments. moderation.e2e-spec.ts turns them on.
    HOLD_NEW_ACCOUNT_HOURS: '0',
    HOLD_DUPLICATE_MINUTES: '0',
    HOLD_MAX_LINKS: '0',
    ...options.env,
  });
  const app = await createApp({ config, databaseUrl, extraModules: options.extraModules, frontend: options.frontend });
  try {
    await app.init();
  } catch (error) {
    // Whatever did start (pools, queue workers) must not outlive the suite that could not boot.
    await app.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    http: request(app.getHttpServer()),
    dataDir,
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
