import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * The only reader of process.env. Every variable of docs/architecture.md#environment is parsed and validated here
 * once; a bad value throws a ConfigError whose one-line message names the variable.
 */
export class ConfigError extends Error {}

export interface AppConfig {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  jwtSecret: string;
  /** The key of the passwords' HMAC pre-hash; every instance on one database needs the same. */
  passwordPepper: string;
  throttleDisabled: boolean;
  /** Failed sign-ins allowed per account (normalised e-mail) per window, whatever the address. */
  loginAccountLimit: { failures: number; windowMinutes: number };
  /** Comments (and replies) one user may post per minute and per day, across instances with REDIS_URL. */
  commentLimit: { perMinute: number; perDay: number };
  /** Comment moderation (docs/moderation.md): reports per reader per day, and the spam-holding rules (0 turns a rule off). */
  moderation: { reportsPerDay: number; holdNewAccountHours: number; holdDuplicateMinutes: number; holdMaxLinks: number };
  pageCache: boolean;
  /** The IANA zone every page shows dates in (frontend/src/lib/dates.ts), named beside each time. */
  siteTimeZone: string;
  /** Tests only: a file that Content-Security-Policy violation reports are appended to (the browser tests fail on any). */
  cspReportLog: string | undefined;
  /** Shared throttler counters and cache invalidations across instances; unset: in-process. */
  redisUrl: string | undefined;
  logLevel: string;
  /** Express 'trust proxy': which hops may set X-Forwarded-For (client IPs for rate limits). */
  trustProxy: boolean | number | string;
  isProduction: boolean;
  /** Where uploaded images live: DATA_DIR/uploads (default) or an S3-compatible bucket. */
  storage: StorageConfig;
  /** Image uploads per user (per client address when anonymous) per window, counted in the throttler's storage. */
  uploadLimit: { uploads: number; windowMinutes: number };
  /** Images decoded at once, and uploads allowed to wait for a decode (beyond: 503 + Retry-After). */
  imageDecodes: { concurrency: number; queue: number };
  /** The job queue (pg-boss): failed jobs are retried `retryLimit` times, `retryDelaySeconds` doubling each time; a job running longer than `expireSeconds` (its instance died) runs again. */
  jobs: { retryLimit: number; retryDelaySeconds: number; expireSeconds: number; pollSeconds: number };
  /** Seconds between two sweeps of the scheduled-publishing job (posts due are published within this). */
  schedulerIntervalSeconds: number;
  /** Days between 'Delete my account' and the erasure, during which signing in can cancel it; 0 erases at once. */
  accountDeletionGraceDays: number;
  /** Tests only (TEST_CLOCK_CONTROL=1): mounts PUT /api/v1/test/clock, which moves the app's clock. */
  testClockControl: boolean;
  /** Webhook delivery (docs/integrations.md, 'Webhooks'). */
  webhooks: WebhookConfig;
  /** The newsletter (docs/newsletter.md). */
  newsletter: NewsletterConfig;
  /** Cookie-free page-view analytics (docs/analytics.md): ANALYTICS=off counts nothing; raw view rows are kept ANALYTICS_RAW_DAYS. */
  analytics: { enabled: boolean; rawDays: number };
  /** Backups (docs/operations.md#backup). */
  backup: BackupConfig;
  /** The social web (docs/federation.md). */
  federation: FederationConfig;
}

export interface NewsletterConfig {
  /** The address of List-Unsubscribe's `mailto:` (NEWSLETTER_UNSUBSCRIBE_MAILTO; default: MAIL_FROM's address). */
  unsubscribeMailto: string;
  /** NEWSLETTER_RATE_PER_MINUTE: newsletter e-mails handed to SMTP per minute across all instances; 0 = unlimited. */
  ratePerMinute: number;
  /** NEWSLETTER_SOFT_BOUNCE_LIMIT: soft bounces in a row (no delivery between) after which an address is suppressed. */
  softBounceLimit: number;
  /** NEWSLETTER_WEBHOOK_SECRET: the HMAC key of POST /api/v1/newsletter/bounces; unset: the endpoint refuses every call (401). */
  webhookSecret: string | undefined;
}

export interface BackupConfig {
  /** BACKUP_DIR, default DATA_DIR/backups. */
  dir: string;
  /** BACKUP_SCHEDULE: a cron expression (5 fields, or 6 with seconds) in SITE_TIME_ZONE; unset: no scheduled backups. */
  schedule: string | undefined;
  /** BACKUP_KEEP: scheduled backups kept (older ones are deleted after a successful one). */
  keep: number;
  /** BACKUP_PASSPHRASE: seals the secrets in each archive; required with BACKUP_SCHEDULE. */
  passphrase: string | undefined;
  /** Which secrets were given in the environment rather than generated into DATA_DIR/secrets.json. */
  secretsFromEnvironment: string[];
}

/** Whether a cron expression parses (5 fields, or 6 with seconds first). */
export function validCron(expression: string, timeZone: string): boolean {
  if (!/^\S+(\s+\S+){4,5}$/.test(expression.trim())) return false;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    (require('cron-parser') as typeof import('cron-parser')).parseExpression(expression, { tz: timeZone });
    return true;
  } catch {
    return false;
  }
}

function parseBackup(env: Env, dataDir: string, timeZone: string): BackupConfig {
  const schedule = optional(env, 'BACKUP_SCHEDULE');
  if (schedule !== undefined && !validCron(schedule, timeZone))
    throw new ConfigError(
      `BACKUP_SCHEDULE must be a cron expression such as "0 3 * * *" (every day at 03:00 in SITE_TIME_ZONE) (got "${schedule}")`,
    );
  const passphrase = env.BACKUP_PASSPHRASE === undefined || env.BACKUP_PASSPHRASE === '' ? undefined : env.BACKUP_PASSPHRASE;
  if (passphrase !== undefined && passphrase.length < 8) throw new ConfigError('BACKUP_PASSPHRASE must be at least 8 characters');
  if (schedule !== undefined && passphrase === undefined)
    throw new ConfigError('BACKUP_PASSPHRASE is required with BACKUP_SCHEDULE (it seals the secrets in each backup)');
  return {
    dir: resolve(optional(env, 'BACKUP_DIR') ?? resolve(dataDir, 'backups')),
    schedule,
    keep: parseWholeNumber(env, 'BACKUP_KEEP', 7, 1, 1000),
    passphrase,
    secretsFromEnvironment: ['JWT_SECRET', 'PASSWORD_PEPPER'].filter((name) => optional(env, name) !== undefined),
  };
}

export interface FederationConfig {
  /** FEDERATION_ALLOW_PRIVATE=1: remote servers on loopback and private addresses are fetched and delivered to (tests only). */
  allowPrivate: boolean;
  /** The publication's handle (`@blog@host`): FEDERATION_SITE_HANDLE. */
  siteHandle: string;
  /** Largest inbox body accepted (bytes); larger: 413. */
  inboxBodyLimit: number;
  /** Inbox requests one remote instance may make per minute (beyond: 429). */
  inboxPerMinute: number;
}

export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE=1: targets on loopback, private and link-local addresses are allowed (tests, intranets). */
  allowPrivate: boolean;
  /** A receiver that has not answered within this is a failed attempt (retried). */
  timeoutMs: number;
  /** The first retry waits this long; each next one twice as long, up to an hour. */
  retryBaseMs: number;
  /** A delivery is retried for this long; a webhook failing this long is turned off and its admin told. */
  failureWindowSeconds: number;
}

export type StorageConfig =
  | { driver: 'local' }
  | {
      driver: 's3';
      /** An S3-compatible server's URL; undefined = AWS for the region. */
      endpoint: string | undefined;
      bucket: string;
      region: string;
      /** Both or neither (then the SDK's default credential chain). */
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      forcePathStyle: boolean;
      /** Images are linked here (`<publicUrl>/images/<kind>/<name>`) instead of through the app. */
      publicUrl: string | undefined;
    };

type Env = Record<string, string | undefined>;

function optional(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function parsePort(env: Env): number {
  const raw = optional(env, 'PORT');
  if (raw === undefined) return 3000;
  const port = Number(raw);
  if (!/^\d+$/.test(raw) || port < 1 || port > 65535) {
    throw new ConfigError(`PORT must be a whole number from 1 to 65535 (got "${raw}")`);
  }
  return port;
}

function parseUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')} (got "${raw}")`);
  }
  return raw;
}

function parseFlag(env: Env, name: string, on: string[], off: string[], fallback: boolean): boolean {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const lower = raw.toLowerCase();
  if (on.includes(lower)) return true;
  if (off.includes(lower)) return false;
  throw new ConfigError(`${name} must be one of ${[...on, ...off].join(', ')} (got "${raw}")`);
}

function parseEmail(env: Env, name: string): string | undefined {
  const raw = optional(env, name);
  if (raw !== undefined && !/^[^\s@]+@[^\s@]+$/.test(raw)) {
    throw new ConfigError(`${name} must be an e-mail address (got "${raw}")`);
  }
  return raw?.toLowerCase();
}

/** NEWSLETTER_WEBHOOK_SECRET: at least 32 characters (an HMAC key shared with the bounce relay). */
function parseWebhookSecret(env: Env): string | undefined {
  const raw = optional(env, 'NEWSLETTER_WEBHOOK_SECRET');
  if (raw !== undefined && raw.length < 32) throw new ConfigError('NEWSLETTER_WEBHOOK_SECRET must be at least 32 characters');
  return raw;
}

/** The bare address of MAIL_FROM ('Inkwell <no-reply@example.com>' → 'no-reply@example.com'). */
function mailFromAddress(mailFrom: string): string {
  return (/<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom).trim().toLowerCase();
}

function parseLoginAccountLimit(env: Env): { failures: number; windowMinutes: number } {
  const raw = optional(env, 'LOGIN_ACCOUNT_LIMIT');
  if (raw === undefined) return { failures: 10, windowMinutes: 15 };
  const match = /^(\d+)\/(\d+)m$/.exec(raw);
  const failures = Number(match?.[1]);
  const windowMinutes = Number(match?.[2]);
  if (!match || failures < 1 || failures > 1000 || windowMinutes < 1 || windowMinutes > 1440) {
    throw new ConfigError(
      `LOGIN_ACCOUNT_LIMIT must be failures per minutes like "10/15m" (1 to 1000 failures, 1 to 1440 minutes) (got "${raw}")`,
    );
  }
  return { failures, windowMinutes };
}

function parseUploadLimit(env: Env): { uploads: number; windowMinutes: number } {
  const raw = optional(env, 'UPLOAD_LIMIT');
  if (raw === undefined) return { uploads: 30, windowMinutes: 60 };
  const match = /^(\d+)\/(\d+)m$/.exec(raw);
  const uploads = Number(match?.[1]);
  const windowMinutes = Number(match?.[2]);
  if (!match || uploads < 1 || uploads > 10000 || windowMinutes < 1 || windowMinutes > 1440) {
    throw new ConfigError(`UPLOAD_LIMIT must be uploads per minutes like "30/60m" (1 to 10000 uploads, 1 to 1440 minutes) (got "${raw}")`);
  }
  return { uploads, windowMinutes };
}

function parseWholeNumber(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  }
  return value;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** STORAGE=local|s3; S3 when STORAGE is unset and S3_BUCKET is given. */
function parseStorage(env: Env): StorageConfig {
  const raw = optional(env, 'STORAGE')?.toLowerCase();
  if (raw !== undefined && raw !== 'local' && raw !== 's3')
    throw new ConfigError(`STORAGE must be one of local, s3 (got "${env.STORAGE}")`);
  const bucket = optional(env, 'S3_BUCKET');
  const driver = raw ?? (bucket ? 's3' : 'local');
  if (driver === 'local') return { driver: 'local' };
  if (!bucket) throw new ConfigError('S3_BUCKET is required when STORAGE=s3');
  if (!BUCKET_NAME.test(bucket))
    throw new ConfigError(`S3_BUCKET must be a bucket name (3 to 63 lower-case letters, digits, dots, hyphens) (got "${bucket}")`);
  const endpoint = parseUrl(env, 'S3_ENDPOINT', ['http:', 'https:'])?.replace(/\/+$/, '');
  const region = optional(env, 'S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{2,32}$/.test(region)) throw new ConfigError(`S3_REGION must be a region name like "us-east-1" (got "${region}")`);
  const accessKeyId = optional(env, 'S3_ACCESS_KEY_ID');
  const secretAccessKey = optional(env, 'S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be given together (or neither, for the default credential chain)',
    );
  }
  const forcePathStyle = parseFlag(env, 'S3_FORCE_PATH_STYLE', ['1', 'true'], ['0', 'false'], endpoint !== undefined);
  const publicUrl = parseUrl(env, 'S3_PUBLIC_URL', ['http:', 'https:'])?.replace(/\/+$/, '');
  return { driver: 's3', endpoint, bucket, region, accessKeyId, secretAccessKey, forcePathStyle, publicUrl };
}

/** Secrets made on first start live in DATA_DIR/secrets.json, readable by the owner only. */
export function persistedSecret(dataDir: string, key: string): string {
  const file = resolve(dataDir, 'secrets.json');
  let secrets: Record<string, string> = {};
  if (existsSync(file)) {
    try {
      secrets = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
    } catch {
      throw new ConfigError(`${file} is not valid JSON; fix or delete it (tokens signed with the old secret stop working)`);
    }
  }
  if (!secrets[key]) {
    secrets[key] = randomBytes(48).toString('base64url');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  chmodSync(file, 0o600);
  return secrets[key];
}

/** SITE_TIME_ZONE: an IANA zone this Node's ICU knows ('Europe/Berlin'), Vietnam's by default (the spec's readers). */
function parseTimeZone(env: Env): string {
  const raw = optional(env, 'SITE_TIME_ZONE');
  if (raw === undefined) return 'Asia/Ho_Chi_Minh';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone;
  } catch {
    throw new ConfigError(`SITE_TIME_ZONE must be an IANA time zone such as "Asia/Ho_Chi_Minh" or "UTC" (got "${raw}")`);
  }
}

function parseFederation(env: Env): FederationConfig {
  const siteHandle = optional(env, 'FEDERATION_SITE_HANDLE') ?? 'blog';
  if (!/^[a-z0-9][a-z0-9_-]{0,39}$/.test(siteHandle)) {
    throw new ConfigError(`FEDERATION_SITE_HANDLE must be 1-40 lowercase letters, digits, '-' or '_' (got "${siteHandle}")`);
  }
  return {
    allowPrivate: parseFlag(env, 'FEDERATION_ALLOW_PRIVATE', ['1', 'true'], ['0', 'false'], false),
    siteHandle,
    inboxBodyLimit: parseWholeNumber(env, 'FEDERATION_INBOX_BODY_LIMIT', 262_144, 1_024, 10_485_760),
    inboxPerMinute: parseWholeNumber(env, 'FEDERATION_INBOX_PER_MINUTE', 600, 1, 1_000_000),
  };
}

export function loadConfig(env: Env = process.env): AppConfig {
  const port = parsePort(env);
  const dataDir = resolve(optional(env, 'DATA_DIR') ?? './data');
  const databaseUrl = parseUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const publicUrl = (parseUrl(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const smtpUrl = parseUrl(env, 'SMTP_URL', ['smtp:', 'smtps:']);
  const mailFrom = optional(env, 'MAIL_FROM') ?? 'Inkwell <no-reply@localhost>';
  const adminEmail = parseEmail(env, 'ADMIN_EMAIL');
  const adminPassword = optional(env, 'ADMIN_PASSWORD');
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters');
  }
  const jwtRaw = optional(env, 'JWT_SECRET');
  if (jwtRaw !== undefined && jwtRaw.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters');
  }
  const pepperRaw = optional(env, 'PASSWORD_PEPPER');
  if (pepperRaw !== undefined && pepperRaw.length < 32) {
    throw new ConfigError('PASSWORD_PEPPER must be at least 32 characters');
  }
  const throttleDisabled = parseFlag(env, 'THROTTLE_DISABLED', ['1', 'true'], ['0', 'false'], false);
  const loginAccountLimit = parseLoginAccountLimit(env);
  const commentLimit = {
    perMinute: parseWholeNumber(env, 'COMMENT_LIMIT_PER_MINUTE', 10, 1, 10_000),
    perDay: parseWholeNumber(env, 'COMMENT_LIMIT_PER_DAY', 100, 1, 1_000_000),
  };
  const moderation = {
    reportsPerDay: parseWholeNumber(env, 'REPORT_LIMIT_PER_DAY', 20, 1, 100_000),
    holdNewAccountHours: parseWholeNumber(env, 'HOLD_NEW_ACCOUNT_HOURS', 24, 0, 8_760),
    holdDuplicateMinutes: parseWholeNumber(env, 'HOLD_DUPLICATE_MINUTES', 10, 0, 10_080),
    holdMaxLinks: parseWholeNumber(env, 'HOLD_MAX_LINKS', 2, 0, 1_000),
  };
  const pageCache = parseFlag(env, 'PAGE_CACHE', ['on', '1', 'true'], ['off', '0', 'false'], true);
  const siteTimeZone = parseTimeZone(env);
  const redisUrl = parseUrl(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const cspReportLog = optional(env, 'CSP_REPORT_LOG');
  const logLevel = optional(env, 'LOG_LEVEL') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`);
  }

  // Trust no proxy unless told: otherwise any client could pick its rate-limit bucket with X-Forwarded-For.
  const trustProxyRaw = optional(env, 'TRUST_PROXY') ?? 'false';
  let trustProxy: boolean | number | string = trustProxyRaw;
  if (/^\d+$/.test(trustProxyRaw)) trustProxy = Number(trustProxyRaw);
  else if (trustProxyRaw === 'true' || trustProxyRaw === 'false') trustProxy = trustProxyRaw === 'true';
  else if (!/^[\w.:/,\s-]+$/.test(trustProxyRaw)) {
    throw new ConfigError(
      `TRUST_PROXY must be a hop count, true/false, or addresses/subnets/names like "loopback, 10.0.0.0/8" (got "${trustProxyRaw}")`,
    );
  }

  return Object.freeze({
    port,
    dataDir,
    databaseUrl,
    publicUrl,
    smtpUrl,
    mailFrom,
    adminEmail,
    adminPassword,
    jwtSecret: jwtRaw ?? persistedSecret(dataDir, 'jwtSecret'),
    passwordPepper: pepperRaw ?? persistedSecret(dataDir, 'passwordPepper'),
    throttleDisabled,
    loginAccountLimit: Object.freeze(loginAccountLimit),
    commentLimit: Object.freeze(commentLimit),
    moderation: Object.freeze(moderation),
    pageCache,
    siteTimeZone,
    cspReportLog: cspReportLog && resolve(cspReportLog),
    redisUrl,
    logLevel,
    trustProxy,
    isProduction: env.NODE_ENV === 'production',
    storage: Object.freeze(parseStorage(env)),
    uploadLimit: Object.freeze(parseUploadLimit(env)),
    imageDecodes: Object.freeze({
      concurrency: parseWholeNumber(env, 'IMAGE_DECODE_CONCURRENCY', 2, 1, 16),
      queue: parseWholeNumber(env, 'IMAGE_DECODE_QUEUE', 8, 0, 1000),
    }),
    jobs: Object.freeze({
      retryLimit: parseWholeNumber(env, 'JOB_RETRY_LIMIT', 5, 0, 100),
      retryDelaySeconds: parseWholeNumber(env, 'JOB_RETRY_DELAY_SECONDS', 30, 1, 86_400),
      expireSeconds: parseWholeNumber(env, 'JOB_EXPIRE_SECONDS', 120, 10, 86_400),
      pollSeconds: parseWholeNumber(env, 'JOB_POLL_SECONDS', 1, 1, 60),
    }),
    schedulerIntervalSeconds: parseWholeNumber(env, 'SCHEDULER_INTERVAL_SECONDS', 10, 1, 30),
    accountDeletionGraceDays: parseWholeNumber(env, 'ACCOUNT_DELETION_GRACE_DAYS', 7, 0, 365),
    testClockControl: parseFlag(env, 'TEST_CLOCK_CONTROL', ['1', 'true'], ['0', 'false'], false),
    webhooks: Object.freeze({
      allowPrivate: parseFlag(env, 'WEBHOOK_ALLOW_PRIVATE', ['1', 'true'], ['0', 'false'], false),
      timeoutMs: parseWholeNumber(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
      retryBaseMs: parseWholeNumber(env, 'WEBHOOK_RETRY_BASE_MS', 30_000, 10, 3_600_000),
      failureWindowSeconds: parseWholeNumber(env, 'WEBHOOK_FAILURE_WINDOW_SECONDS', 86_400, 1, 604_800),
    }),
    newsletter: Object.freeze({
      unsubscribeMailto: parseEmail(env, 'NEWSLETTER_UNSUBSCRIBE_MAILTO') ?? mailFromAddress(mailFrom),
      ratePerMinute: parseWholeNumber(env, 'NEWSLETTER_RATE_PER_MINUTE', 0, 0, 1_000_000),
      softBounceLimit: parseWholeNumber(env, 'NEWSLETTER_SOFT_BOUNCE_LIMIT', 3, 1, 100),
      webhookSecret: parseWebhookSecret(env),
    }),
    analytics: Object.freeze({
      enabled: parseFlag(env, 'ANALYTICS', ['on', '1', 'true'], ['off', '0', 'false'], true),
      rawDays: parseWholeNumber(env, 'ANALYTICS_RAW_DAYS', 30, 1, 366),
    }),
    backup: Object.freeze(parseBackup(env, dataDir, siteTimeZone)),
    federation: Object.freeze(parseFederation(env)),
  });
}

/** Injection token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');
