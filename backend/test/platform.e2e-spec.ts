import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import { Throttle } from '@nestjs/throttler';
import { IsEmail, IsInt, IsString, Length, Min } from 'class-validator';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateOpenApi } from '../src/bin/generate-openapi';
import { PROJECT_ROOT } from '../src/config/paths';
import { ParseIdPipe } from '../src/common/validation/parse-id.pipe';
import { createTestApp, TestApp } from './helpers/app';

class ProbeDto {
  @IsEmail({}, { message: 'Invalid email address' }) email: string;
  @IsString() @Length(2, 100, { message: 'Full name must be less than 100 characters' }) fullName: string;
  @IsInt() @Min(1) count: number;
}

@Controller('probe')
class ProbeController {
  @Post('echo')
  echo(@Body() body: ProbeDto) {
    return body;
  }

  @Get('items/:id')
  item(@Param('id', ParseIdPipe) id: number) {
    return { id };
  }

  @Get('boom')
  boom(): never {
    throw new Error('secret internal detail at /srv/app.js:42');
  }

  @Get('limited')
  @Throttle({ default: { limit: 2, ttl: 60_000 } })
  limited() {
    return 'fine';
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('Platform conventions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extraModules: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('answers health with 200 once the database is up and migrated', async () => {
    const res = await t.http.get('/api/v1/health').expect(200);
    expect(res.body).toEqual({
      success: true,
      data: { status: 'ok', database: 'up', migrations: 'applied' },
      message: 'OK',
      status: 200,
      errors: null,
    });
  });

  it('wraps successes in the envelope', async () => {
    const res = await t.http.post('/probe/echo').send({ email: 'a@b.co', fullName: 'Ann Lee', count: 3 }).expect(201);
    expect(res.body).toEqual({
      success: true,
      data: { email: 'a@b.co', fullName: 'Ann Lee', count: 3 },
      message: 'Created',
      status: 201,
      errors: null,
    });
  });

  it('answers a malformed JSON body with 400 in the envelope, not 500', async () => {
    const res = await t.http.post('/api/v1/health').set('Content-Type', 'application/json').send('{"broken":').expect(400);
    expect(res.body).toMatchObject({
      success: false,
      data: null,
      status: 400,
      message: 'Invalid request. Please check your input.',
      errors: null,
    });
  });

  it('reports validation failures per field with the first message on top', async () => {
    const res = await t.http.post('/probe/echo').send({ email: 'nope', fullName: 'x', count: 0 }).expect(400);
    expect(res.body.success).toBe(false);
    expect(res.body.status).toBe(400);
    expect(res.body.errors.email).toEqual(['Invalid email address']);
    expect(res.body.errors.fullName).toEqual(['Full name must be less than 100 characters']);
    expect(res.body.errors.count).toHaveLength(1);
    expect(res.body.message).toBe('Invalid email address');
  });

  it('refuses fields the DTO does not declare (no mass assignment)', async () => {
    const res = await t.http.post('/probe/echo').send({ email: 'a@b.co', fullName: 'Ann Lee', count: 1, isAdmin: true }).expect(400);
    expect(res.body.errors.isAdmin).toEqual(['property isAdmin should not exist']);
  });

  it('answers 400 for a malformed id', async () => {
    await t.http.get('/probe/items/12').expect(200);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await t.http.get(`/probe/items/${bad}`).expect(400);
      expect(res.body.message).toBe('Invalid id: it must be a positive whole number.');
    }
  });

  it('hides unexpected errors behind a generic 500 with the request id', async () => {
    const res = await t.http.get('/probe/boom').set('X-Request-Id', 'test-request-0001').expect(500);
    expect(res.body).toEqual({
      success: false,
      data: null,
      message: 'An unexpected error occurred',
      status: 500,
      errors: null,
      requestId: 'test-request-0001',
    });
    expect(JSON.stringify(res.body)).not.toContain('secret');
    expect(res.headers['x-request-id']).toBe('test-request-0001');
  });

  it('answers unknown API paths with a 404 envelope and sets security headers', async () => {
    const res = await t.http.get('/api/v1/no-such-thing').expect(404);
    expect(res.body).toMatchObject({ success: false, status: 404, data: null });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("object-src 'none'");
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
  });

  it('serves the Swagger document', async () => {
    const res = await t.http.get('/api/docs-json').expect(200);
    expect(res.body.paths['/api/v1/health'].get.operationId).toBe('getHealth');
  });

  it('documents who may call each operation with the declared security schemes, and the rate limit', async () => {
    const doc = (await t.http.get('/api/docs-json').expect(200)).body;
    const operations = Object.values(
      doc.paths as Record<
        string,
        Record<string, { operationId: string; security?: Record<string, string[]>[]; responses: Record<string, unknown> }>
      >,
    ).flatMap((item) => Object.values(item));
    const byId = Object.fromEntries(operations.map((op) => [op.operationId, op]));
    const session = [{ bearer: [] }, { cookie: [] }];
    expect(doc.components.securitySchemes.cookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'inkwell_access' });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // Every operation says what it takes, and names only declared schemes (each once).
    for (const op of operations) {
      expect(op.security).toBeDefined();
      const named = op.security!.flatMap((requirement) => Object.keys(requirement));
      expect(named.filter((name) => !(name in doc.components.securitySchemes))).toEqual([]);
      expect(new Set(named).size).toBe(named.length);
    }
    // An operation a personal API token may reach lists its scheme too (x-required-scope names the scope).
    expect(byId.getProfile.security).toEqual([...session, { apiToken: [] }]); // @Auth()
    expect(byId.listTags.security).toEqual([...session, { apiToken: [] }, {}]); // @OptionalAuth(): anonymous too
    expect(byId.changePassword.security).toEqual(session); // session-only: no token
    expect(byId.login.security).toEqual([]); // public
    // The global rate limit answers 429 anywhere but on the health check.
    expect(Object.keys(byId.listPublicPosts.responses)).toContain('429');
    expect(Object.keys(byId.getHealth.responses)).not.toContain('429');
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
  });

  it('keeps the committed openapi.json in step with the code (run `npm run openapi`)', async () => {
    const committed = readFileSync(join(PROJECT_ROOT, 'openapi.json'), 'utf8');
    expect(await generateOpenApi()).toBe(committed);
  });

  it('keeps the one generated schema (packages/client/src/schema.ts) in step with openapi.json (run `npm run api:types`)', () => {
    // The pages (`@inkwell/client/schema`) and the client package both read this file.
    const committed = readFileSync(join(PROJECT_ROOT, 'packages/client/src/schema.ts'), 'utf8');
    const cli = join(PROJECT_ROOT, 'node_modules/openapi-typescript/bin/cli.js');
    expect(execFileSync(process.execPath, [cli, 'openapi.json'], { cwd: PROJECT_ROOT, encoding: 'utf8' })).toBe(committed);
  });
});

describe('Rate limiting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: true, extraModules: [ProbeModule] });
  });
  afterAll(() => t.close());

  it("answers 429 with the spec's text past the limit", async () => {
    await t.http.get('/probe/limited').expect(200);
    await t.http.get('/probe/limited').expect(200);
    const res = await t.http.get('/probe/limited').expect(429);
    expect(res.body).toMatchObject({ success: false, status: 429, message: 'Too many attempts. Please wait before trying again.' });
  });

  it('never throttles health', async () => {
    for (let i = 0; i < 5; i++) await t.http.get('/api/v1/health').expect(200);
  });
});

describe('Rate limiting without TRUST_PROXY (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: true, extraModules: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-For by default: rotating it does not escape the limit', async () => {
    const visitor = (ip: string) => t.http.get('/probe/limited').set('X-Forwarded-For', ip);
    await visitor('203.0.113.1').expect(200);
    await visitor('203.0.113.2').expect(200);
    await visitor('203.0.113.3').expect(429);
    await visitor('203.0.113.4').expect(429);
  });
});

describe('Rate limiting behind a trusted proxy (TRUST_PROXY)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: true, extraModules: [ProbeModule], env: { TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => t.close());

  it('counts each forwarded client address on its own', async () => {
    const visitor = (ip: string) => t.http.get('/probe/limited').set('X-Forwarded-For', ip);
    await visitor('203.0.113.7').expect(200);
    await visitor('203.0.113.7').expect(200);
    await visitor('203.0.113.7').expect(429);
    await visitor('203.0.113.8').expect(200);
  });
});
