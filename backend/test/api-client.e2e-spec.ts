import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RoleName } from '../src/users/roles';
import { ApiTokensMessages } from '../src/api-tokens/api-tokens.messages';
// Through its source until the workspace is installed (then: from '@inkwell/client').
import { createInkwellClient, data, InkwellApiError } from '../../packages/client/src/index';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createUser, TestUser } from './helpers/users';

/**
 * The typed client of packages/client against the real app listening on loopback,
 * authenticated by a personal API token: reads, a write its scope allows, a refusal it does not.
 */
describe('@inkwell/client with an API token', () => {
  let t: TestApp;
  let author: TestUser;
  let baseUrl: string;

  beforeAll(async () => {
    t = await createTestApp();
    author = await createUser(t, [RoleName.AUTHOR]);
    const server = t.app.getHttpServer();
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => t.close());

  it('reads and writes as the token allows, and reports a refusal with the API message', async () => {
    const created = await t.http
      .post(api('/account/tokens'))
      .set(author.auth)
      .send({ name: 'Client test', scopes: ['read', 'posts:write'], expiresInDays: 30 })
      .expect(201);
    const inkwell = createInkwellClient({ baseUrl, token: created.body.data.token as string });

    const me = await data(inkwell.GET('/api/v1/users/profile'));
    expect(me).toMatchObject({ id: author.id, email: author.email });

    const slug = `client-post-${uid()}`;
    const post = await data(
      inkwell.POST('/api/v1/blog/posts/author/create', {
        body: { title: 'From the client', slug, summary: 'S', content: 'Body', tagSlugs: [] },
      }),
    );
    expect(post).toMatchObject({ slug, status: 'DRAFT', title: 'From the client' });
    const mine = await data(inkwell.GET('/api/v1/blog/posts/author/my-posts', { params: { query: { page: 0, size: 10 } } }));
    expect(mine?.content.map((item) => item.slug)).toContain(slug);

    const refused = await data(inkwell.POST('/api/v1/comments', { body: { postId: post!.id, content: 'Not with this token' } })).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(InkwellApiError);
    expect(refused).toMatchObject({ status: 403, message: ApiTokensMessages.lacksScope('comments:write') });

    const anonymous = createInkwellClient({ baseUrl });
    const tags = await data(anonymous.GET('/api/v1/blog/tags/publish'));
    expect(Array.isArray(tags)).toBe(true);
  });

  it("runs the README's example script as written (node, plain JavaScript) against the live server", async () => {
    const clientDir = join(__dirname, '..', '..', 'packages', 'client');
    const example = join(clientDir, 'examples', 'first-draft.mjs');
    // The README shows the file itself: they never differ.
    expect(readFileSync(join(clientDir, 'README.md'), 'utf8')).toContain(`\`\`\`js\n${readFileSync(example, 'utf8')}\`\`\``);
    // The package as it is published: dist/, compiled from the current source (`npm run build -w @inkwell/client` does
    // the same after regenerating src/schema.ts, which `npm run openapi` keeps current).
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(clientDir, 'tsconfig.json')], { stdio: 'pipe' });
    const created = await t.http
      .post(api('/account/tokens'))
      .set(author.auth)
      .send({ name: 'README example', scopes: ['read', 'posts:write'], expiresInDays: 30 })
      .expect(201);

    const { stdout } = await promisify(execFile)(process.execPath, [example], {
      env: { ...process.env, INKWELL_URL: baseUrl, INKWELL_TOKEN: created.body.data.token as string },
      timeout: 30_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe(`Signed in as ${author.email}`);
    expect(lines[1]).toMatch(/^Draft \d+ saved as hello-from-a-script-[a-z0-9]+$/);
    expect(lines[2]).toBe(`403 ${ApiTokensMessages.lacksScope('comments:write')}`);
  }, 90_000);
});
