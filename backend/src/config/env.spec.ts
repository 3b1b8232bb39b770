import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './env';

describe('loadConfig', () => {
  // Each run made ~26 folders in /tmp and left them: they are removed after the suite.
  const made: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'inkwell-config-'));
    made.push(dir);
    return dir;
  };
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('applies the documented defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      dataDir: dir,
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      mailFrom: 'Inkwell <no-reply@localhost>',
      throttleDisabled: false,
      loginAccountLimit: { failures: 10, windowMinutes: 15 },
      pageCache: true,
      redisUrl: undefined,
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT must be a whole number/],
    [{ PORT: '70000' }, /^PORT must be a whole number/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must start with postgres:\/\//],
    [{ PUBLIC_URL: 'not a url' }, /^PUBLIC_URL must be a URL/],
    [{ SMTP_URL: 'http://mail' }, /^SMTP_URL must start with smtp:\/\//],
    [{ ADMIN_EMAIL: 'admin' }, /^ADMIN_EMAIL must be an e-mail address/],
    [{ ADMIN_PASSWORD: 'short' }, /^ADMIN_PASSWORD must be at least 8 characters/],
    [{ JWT_SECRET: 'too-short' }, /^JWT_SECRET must be at least 32 characters/],
    [{ PAGE_CACHE: 'maybe' }, /^PAGE_CACHE must be one of/],
    [{ REDIS_URL: 'localhost:6379' }, /^REDIS_URL must start with redis:\/\/ or rediss:\/\//],
    [{ REDIS_URL: 'not a url' }, /^REDIS_URL must be a URL/],
    [{ THROTTLE_DISABLED: 'yes please' }, /^THROTTLE_DISABLED must be one of/],
    [{ TRUST_PROXY: 'x; rm -rf' }, /^TRUST_PROXY must be/],
    [{ LOGIN_ACCOUNT_LIMIT: '10' }, /^LOGIN_ACCOUNT_LIMIT must be failures per minutes like "10\/15m"/],
    [{ LOGIN_ACCOUNT_LIMIT: '0/15m' }, /^LOGIN_ACCOUNT_LIMIT must be/],
    [{ LOGIN_ACCOUNT_LIMIT: '10/0m' }, /^LOGIN_ACCOUNT_LIMIT must be/],
    [{ LOGIN_ACCOUNT_LIMIT: '10/1441m' }, /^LOGIN_ACCOUNT_LIMIT must be/],
    [{ SITE_TIME_ZONE: 'Mars/Olympus_Mons' }, /^SITE_TIME_ZONE must be an IANA time zone/],
    [{ COMMENT_LIMIT_PER_MINUTE: '0' }, /^COMMENT_LIMIT_PER_MINUTE must be a whole number from 1 to 10000 \(got "0"\)/],
    [{ COMMENT_LIMIT_PER_DAY: 'lots' }, /^COMMENT_LIMIT_PER_DAY must be a whole number/],
    [{ UPLOAD_LIMIT: '30' }, /^UPLOAD_LIMIT must be uploads per minutes like "30\/60m"/],
    [{ UPLOAD_LIMIT: '0/60m' }, /^UPLOAD_LIMIT must be/],
    [{ IMAGE_DECODE_CONCURRENCY: '0' }, /^IMAGE_DECODE_CONCURRENCY must be a whole number from 1 to 16/],
    [{ IMAGE_DECODE_QUEUE: 'many' }, /^IMAGE_DECODE_QUEUE must be a whole number from 0 to 1000/],
    [{ SCHEDULER_INTERVAL_SECONDS: '60' }, /^SCHEDULER_INTERVAL_SECONDS must be a whole number from 1 to 30/],
    [{ TEST_CLOCK_CONTROL: 'please' }, /^TEST_CLOCK_CONTROL must be one of/],
  ])('rejects %j with a message naming the variable', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });

  it('reads the per-user comment limits (10 a minute, 100 a day by default)', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).commentLimit).toEqual({ perMinute: 10, perDay: 100 });
    expect(loadConfig({ DATA_DIR: dataDir(), COMMENT_LIMIT_PER_MINUTE: '3', COMMENT_LIMIT_PER_DAY: '50' }).commentLimit).toEqual({
      perMinute: 3,
      perDay: 50,
    });
  });

  it("reads SITE_TIME_ZONE, Vietnam's zone by default, in its canonical spelling", () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).siteTimeZone).toBe('Asia/Ho_Chi_Minh');
    expect(loadConfig({ DATA_DIR: dataDir(), SITE_TIME_ZONE: 'europe/berlin' }).siteTimeZone).toBe('Europe/Berlin');
  });

  it('reads LOGIN_ACCOUNT_LIMIT as failures per minutes', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), LOGIN_ACCOUNT_LIMIT: '5/60m' }).loginAccountLimit).toEqual({ failures: 5, windowMinutes: 60 });
  });

  it('reads the upload limit and the image decode queue, 30 an hour and 2 + 8 by default', () => {
    expect(loadConfig({ DATA_DIR: dataDir() })).toMatchObject({
      uploadLimit: { uploads: 30, windowMinutes: 60 },
      imageDecodes: { concurrency: 2, queue: 8 },
    });
    const config = loadConfig({ DATA_DIR: dataDir(), UPLOAD_LIMIT: '5/10m', IMAGE_DECODE_CONCURRENCY: '1', IMAGE_DECODE_QUEUE: '0' });
    expect(config).toMatchObject({ uploadLimit: { uploads: 5, windowMinutes: 10 }, imageDecodes: { concurrency: 1, queue: 0 } });
  });

  it('derives PUBLIC_URL from PORT and trims a trailing slash', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://blog.example.com/' }).publicUrl).toBe('https://blog.example.com');
  });

  it('generates the JWT secret once and keeps it in DATA_DIR with mode 600', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).jwtSecret;
    const second = loadConfig({ DATA_DIR: dir }).jwtSecret;
    expect(first).toHaveLength(64);
    expect(second).toBe(first);
    const file = join(dir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).jwtSecret).toBe(first);
  });

  it('reads TRUST_PROXY as a hop count, a flag or a list', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
  });

  it('reads REDIS_URL (redis:// or rediss://)', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'redis://cache:6379/0' }).redisUrl).toBe('redis://cache:6379/0');
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_URL: 'rediss://:secret@cache:6380' }).redisUrl).toBe('rediss://:secret@cache:6380');
  });

  it('uses JWT_SECRET when given', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: 'x'.repeat(40) }).jwtSecret).toBe('x'.repeat(40));
  });

  it('uses PASSWORD_PEPPER when given (32+ characters), else one kept in DATA_DIR beside the JWT secret', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PASSWORD_PEPPER: 'p'.repeat(32) }).passwordPepper).toBe('p'.repeat(32));
    expect(() => loadConfig({ DATA_DIR: dataDir(), PASSWORD_PEPPER: 'short' })).toThrow(/^PASSWORD_PEPPER must be at least 32 characters/);
    const dir = dataDir();
    const pepper = loadConfig({ DATA_DIR: dir }).passwordPepper;
    expect(loadConfig({ DATA_DIR: dir }).passwordPepper).toBe(pepper);
    expect(pepper).not.toBe(loadConfig({ DATA_DIR: dir }).jwtSecret);
    expect(JSON.parse(readFileSync(join(dir, 'secrets.json'), 'utf8')).passwordPepper).toBe(pepper);
  });

  it('reads the image storage: local by default, S3 with STORAGE=s3 or S3_BUCKET', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir }).storage).toEqual({ driver: 'local' });
    expect(loadConfig({ DATA_DIR: dir, STORAGE: 'local', S3_BUCKET: 'inkwell' }).storage).toEqual({ driver: 'local' });
    expect(loadConfig({ DATA_DIR: dir, S3_BUCKET: 'inkwell' }).storage).toEqual({
      driver: 's3',
      endpoint: undefined,
      bucket: 'inkwell',
      region: 'us-east-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      publicUrl: undefined,
    });
    const full = {
      DATA_DIR: dir,
      STORAGE: 'S3',
      S3_ENDPOINT: 'http://minio:9000/',
      S3_BUCKET: 'media.example',
      S3_REGION: 'eu-west-1',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PUBLIC_URL: 'https://cdn.example.com/media/',
    };
    expect(loadConfig(full).storage).toEqual({
      driver: 's3',
      endpoint: 'http://minio:9000',
      bucket: 'media.example',
      region: 'eu-west-1',
      accessKeyId: 'key',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      publicUrl: 'https://cdn.example.com/media',
    });
    expect(
      loadConfig({ DATA_DIR: dir, S3_BUCKET: 'inkwell', S3_ENDPOINT: 'http://minio:9000', S3_FORCE_PATH_STYLE: 'false' }).storage,
    ).toMatchObject({ forcePathStyle: false });
  });

  it.each([
    [{ STORAGE: 'disk' }, /^STORAGE must be one of local, s3/],
    [{ STORAGE: 's3' }, /^S3_BUCKET is required when STORAGE=s3/],
    [{ S3_BUCKET: 'No_Such Bucket' }, /^S3_BUCKET must be a bucket name/],
    [{ S3_BUCKET: 'inkwell', S3_ENDPOINT: 'minio:9000' }, /^S3_ENDPOINT must (be a URL|start with http)/],
    [{ S3_BUCKET: 'inkwell', S3_REGION: 'EU West' }, /^S3_REGION must be a region name/],
    [{ S3_BUCKET: 'inkwell', S3_ACCESS_KEY_ID: 'key' }, /^S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be given together/],
    [{ S3_BUCKET: 'inkwell', S3_FORCE_PATH_STYLE: 'maybe' }, /^S3_FORCE_PATH_STYLE must be one of/],
    [{ S3_BUCKET: 'inkwell', S3_PUBLIC_URL: 'ftp://cdn' }, /^S3_PUBLIC_URL must start with http/],
  ])('refuses bad storage settings %j', (env, message) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dataDir(), ...env })).toThrow(message);
  });
});
