import { DataSource } from 'typeorm';
import { ContentChange, ContentEvents } from '../src/common/content-events';
import { createTestApp, TestApp } from './helpers/app';
import { api, err, ISO, uid } from './helpers/envelope';
import { createAdmin, createAuthor, createReader, TestUser } from './helpers/users';

const AUTH_REQUIRED = 'Authentication required. Please log in to continue.';
const FORBIDDEN = 'You do not have permission to access this resource.';

describe('Tags API', () => {
  let t: TestApp;
  let admin: TestUser;
  let author: TestUser;
  let reader: TestUser;
  const events: ContentChange[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.app.get(ContentEvents).onChange((change) => events.push(change));
    admin = await createAdmin(t);
    author = await createAuthor(t);
    reader = await createReader(t);
  });
  afterAll(() => t.close());

  async function tag(overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/tags'))
      .set(admin.auth)
      .send({ name: `Tag ${token}`, ...overrides })
      .expect(201);
    return res.body.data;
  }

  async function post(tagSlugs: string[], status: 'PUBLISHED' | 'DRAFT' = 'PUBLISHED'): Promise<Record<string, any>> {
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Post ${uid()}`, content: 'c', status, tagSlugs })
      .expect(201);
    return res.body.data;
  }

  describe('POST /blog/tags', () => {
    it('401, then 403 for authors and readers', async () => {
      expect((await t.http.post(api('/blog/tags')).send({ name: 'Nope' }).expect(401)).body).toEqual(
        err(401, 'Authentication required. Please log in to create/update tags.'),
      );
      for (const user of [author, reader]) {
        expect((await t.http.post(api('/blog/tags')).set(user.auth).send({ name: 'Nope' }).expect(403)).body).toEqual(err(403, FORBIDDEN));
      }
    });

    it('400 for names outside 2-100 characters, bad slugs, colours and unknown fields', async () => {
      const nameMessage = 'Tag name must be between 2-100 characters';
      expect((await t.http.post(api('/blog/tags')).set(admin.auth).send({ name: ' a ' }).expect(400)).body).toEqual(
        err(400, nameMessage, { name: [nameMessage] }),
      );
      expect((await t.http.post(api('/blog/tags')).set(admin.auth).send({}).expect(400)).body.message).toBe(nameMessage);
      expect(
        (
          await t.http
            .post(api('/blog/tags'))
            .set(admin.auth)
            .send({ name: 'x'.repeat(101) })
            .expect(400)
        ).body.message,
      ).toBe(nameMessage);
      const slugMessage = 'Tag slug must be 2-100 characters: only lowercase letters, numbers, and hyphens.';
      for (const slug of ['A', 'Has Space', 'under_score', 'x'.repeat(101)]) {
        expect((await t.http.post(api('/blog/tags')).set(admin.auth).send({ name: 'Fine name', slug }).expect(400)).body.message).toBe(
          slugMessage,
        );
      }
      expect(
        (await t.http.post(api('/blog/tags')).set(admin.auth).send({ name: 'Fine name', color: 'red' }).expect(400)).body.message,
      ).toBe('Tag color must be a hex colour such as #3178c6');
      expect(
        (await t.http.post(api('/blog/tags')).set(admin.auth).send({ name: 'Fine name', postCount: 3 }).expect(400)).body.errors,
      ).toEqual({
        postCount: ['property postCount should not exist'],
      });
    });

    it('creates a tag; the slug is derived from the name when omitted', async () => {
      const token = uid();
      const res = await t.http
        .post(api('/blog/tags'))
        .set(admin.auth)
        .send({ name: `  Lập trình ${token} `, description: ' About code ', color: '#3178c6', icon: '💻' })
        .expect(201);
      expect(res.body).toEqual({
        success: true,
        status: 201,
        message: 'Tag created.',
        errors: null,
        data: {
          id: expect.any(Number),
          name: `Lập trình ${token}`,
          slug: `lap-trinh-${token}`,
          description: 'About code',
          color: '#3178c6',
          icon: '💻',
          isActive: true,
          status: 'ACTIVE',
          postCount: 0,
          createdAt: ISO,
          updatedAt: ISO,
        },
      });
    });

    it('409 for a name (any case) or slug already used', async () => {
      const existing = await tag();
      expect((await t.http.post(api('/blog/tags')).set(admin.auth).send({ name: existing.name.toUpperCase() }).expect(409)).body).toEqual(
        err(409, `A tag named "${existing.name.toUpperCase()}" already exists.`, {
          name: [`A tag named "${existing.name.toUpperCase()}" already exists.`],
        }),
      );
      expect(
        (
          await t.http
            .post(api('/blog/tags'))
            .set(admin.auth)
            .send({ name: `Other ${uid()}`, slug: existing.slug })
            .expect(409)
        ).body,
      ).toEqual(
        err(409, `A tag with slug "${existing.slug}" already exists.`, { slug: [`A tag with slug "${existing.slug}" already exists.`] }),
      );
    });
  });

  describe('GET /blog/tags and GET /blog/tags/{id}', () => {
    it('lists active tags by default with paging fields; search, sort, activeOnly=false, size up to 1000', async () => {
      const token = uid();
      const b = await tag({ name: `Beta ${token}` });
      const a = await tag({ name: `Alpha ${token}` });
      const c = await tag({ name: `Gamma ${token}`, isActive: false });
      await post([a.slug]);
      await post([a.slug]);

      let res = await t.http.get(api(`/blog/tags?search=${token}`)).expect(200);
      expect(res.body.data).toMatchObject({
        totalElements: 2,
        totalPages: 1,
        number: 0,
        currentPage: 0,
        size: 10,
        first: true,
        last: true,
        empty: false,
        numberOfElements: 2,
      });
      expect(res.body.data.content.map((x: { id: number }) => x.id)).toEqual([b.id, a.id]);
      expect(res.body.data.tags).toEqual(res.body.data.content);
      expect(res.body.data.content[1]).toMatchObject({ id: a.id, postCount: 2, status: 'ACTIVE' });

      res = await t.http.get(api(`/blog/tags?search=${token}&activeOnly=false&sortBy=name&sortDir=asc`)).expect(200);
      expect(res.body.data.content.map((x: { id: number }) => x.id)).toEqual([a.id, b.id, c.id]);
      expect(res.body.data.content[2]).toMatchObject({ isActive: false, status: 'INACTIVE' });

      res = await t.http.get(api(`/blog/tags?search=${token}&sortBy=postCount&size=1000`)).expect(200);
      expect(res.body.data.size).toBe(1000);
      expect(res.body.data.content.map((x: { id: number }) => x.id)).toEqual([a.id, b.id]);

      res = await t.http.get(api(`/blog/tags?search=nothing-${token}`)).expect(200);
      expect(res.body.data).toMatchObject({ content: [], tags: [], totalElements: 0, totalPages: 0, empty: true });

      expect((await t.http.get(api('/blog/tags?sortBy=color')).expect(400)).body.message).toBe(
        'sortBy must be one of name, createdAt, updatedAt, postCount',
      );
      expect((await t.http.get(api('/blog/tags?activeOnly=maybe')).expect(400)).body.message).toBe('activeOnly must be true or false');
    });

    it('status=ACTIVE|INACTIVE lists only those tags (case-insensitive) and pages them on the server; status decides over activeOnly; 400 for another value', async () => {
      const token = uid();
      const active = await tag({ name: `On ${token}` });
      // 'Off 2' carries a published and a draft post from before it was deactivated.
      const used = await tag({ name: `Off 2 ${token}` });
      await post([used.slug]);
      await post([used.slug], 'DRAFT');
      await t.http
        .delete(api(`/blog/tags/${used.id}/deactivate`))
        .set(admin.auth)
        .expect(200);
      const inactive = [
        await tag({ name: `Off 1 ${token}`, isActive: false }),
        used,
        await tag({ name: `Off 3 ${token}`, isActive: false }),
      ];
      const ids = (res: { body: { data: { content: { id: number }[] } } }) => res.body.data.content.map((x) => x.id);

      let res = await t.http.get(api(`/blog/tags?search=${token}&status=INACTIVE&sortBy=name&sortDir=asc&size=2`)).expect(200);
      expect(res.body.data).toMatchObject({
        totalElements: 3,
        totalPages: 2,
        number: 0,
        size: 2,
        first: true,
        last: false,
        numberOfElements: 2,
      });
      expect(ids(res)).toEqual([inactive[0].id, inactive[1].id]);
      expect(res.body.data.content.every((x: { status: string; isActive: boolean }) => x.status === 'INACTIVE' && !x.isActive)).toBe(true);
      res = await t.http.get(api(`/blog/tags?search=${token}&status=INACTIVE&sortBy=name&sortDir=asc&size=2&page=1`)).expect(200);
      expect(res.body.data).toMatchObject({ totalElements: 3, totalPages: 2, number: 1, last: true, numberOfElements: 1 });
      expect(ids(res)).toEqual([inactive[2].id]);

      // Admins count every post of the tag, the public its published ones.
      res = await t.http
        .get(api(`/blog/tags?search=${encodeURIComponent(used.name)}&status=inactive`))
        .set(admin.auth)
        .expect(200);
      expect(res.body.data.content).toEqual([expect.objectContaining({ id: used.id, postCount: 2, status: 'INACTIVE' })]);
      res = await t.http.get(api(`/blog/tags?search=${encodeURIComponent(used.name)}&status=inactive`)).expect(200);
      expect(res.body.data.content).toEqual([expect.objectContaining({ id: used.id, postCount: 1 })]);

      expect(ids(await t.http.get(api(`/blog/tags?search=${token}&status=Active`)).expect(200))).toEqual([active.id]);
      // status decides over activeOnly; without status, activeOnly works as before.
      expect(ids(await t.http.get(api(`/blog/tags?search=${token}&status=ACTIVE&activeOnly=false`)).expect(200))).toEqual([active.id]);
      expect(await t.http.get(api(`/blog/tags?search=${token}&status=INACTIVE&activeOnly=true`)).expect(200)).toMatchObject({
        body: { data: { totalElements: 3 } },
      });
      expect((await t.http.get(api(`/blog/tags?search=${token}&activeOnly=false`)).expect(200)).body.data.totalElements).toBe(4);
      expect((await t.http.get(api(`/blog/tags?search=${token}&status=`)).expect(200)).body.data.totalElements).toBe(1);

      for (const bad of ['ALL', 'true', 'DELETED']) {
        const answer = await t.http.get(api(`/blog/tags?status=${bad}`)).expect(400);
        expect(answer.body).toEqual(err(400, 'status must be ACTIVE or INACTIVE', { status: ['status must be ACTIVE or INACTIVE'] }));
      }
      expect((await t.http.get(api('/blog/tags?status=ACTIVE&status=INACTIVE')).expect(400)).body.message).toBe(
        'status must be ACTIVE or INACTIVE',
      );
    });

    it('counts only published posts for the public, every post for admins', async () => {
      const x = await tag();
      await post([x.slug]);
      await post([x.slug], 'DRAFT');
      expect((await t.http.get(api(`/blog/tags/${x.id}`)).expect(200)).body.data.postCount).toBe(1);
      expect(
        (
          await t.http
            .get(api(`/blog/tags/${x.id}`))
            .set(admin.auth)
            .expect(200)
        ).body.data.postCount,
      ).toBe(2);
      expect((await t.http.get(api('/blog/tags/999999')).expect(404)).body).toEqual(err(404, 'Tag with id 999999 not found'));
      expect((await t.http.get(api('/blog/tags/-1')).expect(400)).body.message).toBe('Invalid id: it must be a positive whole number.');
    });
  });

  describe('GET /blog/tags/publish', () => {
    it('lists active tags with published posts and their published count', async () => {
      const used = await tag();
      const draftOnly = await tag();
      const inactive = await tag();
      await post([used.slug, inactive.slug]);
      await post([used.slug]);
      await post([used.slug], 'DRAFT');
      await post([draftOnly.slug], 'DRAFT');
      await t.http
        .delete(api(`/blog/tags/${inactive.id}/deactivate`))
        .set(admin.auth)
        .expect(200);

      const res = await t.http.get(api('/blog/tags/publish')).expect(200);
      expect(res.body).toMatchObject({ success: true, message: 'OK' });
      const ids = res.body.data.map((x: { id: number }) => x.id);
      expect(res.body.data.find((x: { id: number }) => x.id === used.id)).toMatchObject({
        slug: used.slug,
        postCount: 2,
        status: 'ACTIVE',
      });
      expect(ids).not.toContain(draftOnly.id);
      expect(ids).not.toContain(inactive.id);
    });
  });

  describe('PUT /blog/tags/{id}', () => {
    it('401, 403, 400, 404, 409, then a partial update announced to the page caches', async () => {
      const x = await tag({ description: 'Keep' });
      const other = await tag();
      expect(
        (
          await t.http
            .put(api(`/blog/tags/${x.id}`))
            .send({ name: 'New' })
            .expect(401)
        ).body,
      ).toEqual(err(401, 'Authentication required. Please log in to create/update tags.'));
      expect(
        (
          await t.http
            .put(api(`/blog/tags/${x.id}`))
            .set(author.auth)
            .send({ name: 'New' })
            .expect(403)
        ).body,
      ).toEqual(err(403, FORBIDDEN));
      expect(
        (
          await t.http
            .put(api(`/blog/tags/${x.id}`))
            .set(admin.auth)
            .send({ name: 'N' })
            .expect(400)
        ).body.message,
      ).toBe('Tag name must be between 2-100 characters');
      expect((await t.http.put(api('/blog/tags/999999')).set(admin.auth).send({ name: 'New name' }).expect(404)).body).toEqual(
        err(404, 'Tag with id 999999 not found'),
      );
      expect(
        (
          await t.http
            .put(api(`/blog/tags/${x.id}`))
            .set(admin.auth)
            .send({ slug: other.slug })
            .expect(409)
        ).body,
      ).toEqual(err(409, `A tag with slug "${other.slug}" already exists.`, { slug: [`A tag with slug "${other.slug}" already exists.`] }));
      events.length = 0;
      const newSlug = `renamed-${uid()}`;
      const res = await t.http
        .put(api(`/blog/tags/${x.id}`))
        .set(admin.auth)
        .send({ name: x.name, slug: newSlug })
        .expect(200);
      expect(res.body.message).toBe('Tag updated.');
      expect(res.body.data).toMatchObject({ id: x.id, name: x.name, slug: newSlug, description: 'Keep' });
      expect(events).toEqual([{ kind: 'tag', tagId: x.id, slugs: [x.slug, newSlug] }]);
    });
  });

  describe('slug history: GET /blog/tags/moved/{slug}', () => {
    it('a renamed tag keeps its slug; a changed slug leads from the old one to the current one (public), until another tag takes it', async () => {
      const x = await tag();
      const renamed = await t.http
        .put(api(`/blog/tags/${x.id}`))
        .set(admin.auth)
        .send({ name: `Renamed ${uid()}` })
        .expect(200);
      expect(renamed.body.data.slug).toBe(x.slug);
      expect((await t.http.get(api(`/blog/tags/moved/${x.slug}`)).expect(404)).body).toEqual(err(404, `Tag "${x.slug}" not found`));

      const second = `second-${uid()}`;
      const third = `third-${uid()}`;
      await t.http
        .put(api(`/blog/tags/${x.id}`))
        .set(admin.auth)
        .send({ slug: second })
        .expect(200);
      expect((await t.http.get(api(`/blog/tags/moved/${x.slug}`)).expect(200)).body.data).toEqual({ slug: second });
      await t.http
        .put(api(`/blog/tags/${x.id}`))
        .set(admin.auth)
        .send({ slug: third })
        .expect(200);
      // Every earlier slug leads to the current one (no chains).
      for (const old of [x.slug, second])
        expect((await t.http.get(api(`/blog/tags/moved/${old}`)).expect(200)).body.data).toEqual({ slug: third });
      // The public read by slug stays 404 for an old slug; only the page redirects.
      await t.http.get(api(`/blog/posts/public/tag/${second}`)).expect(404);

      // Back to an earlier slug: it is current again, not moved.
      await t.http
        .put(api(`/blog/tags/${x.id}`))
        .set(admin.auth)
        .send({ slug: second })
        .expect(200);
      await t.http.get(api(`/blog/tags/moved/${second}`)).expect(404);
      expect((await t.http.get(api(`/blog/tags/moved/${third}`)).expect(200)).body.data).toEqual({ slug: second });

      // Another tag taking an old slug ends that redirect; an inactive tag is not led to.
      await tag({ slug: x.slug });
      await t.http.get(api(`/blog/tags/moved/${x.slug}`)).expect(404);
      await t.http
        .delete(api(`/blog/tags/${x.id}/deactivate`))
        .set(admin.auth)
        .expect(200);
      await t.http.get(api(`/blog/tags/moved/${third}`)).expect(404);
      // Deleted with its tag.
      await t.http
        .delete(api(`/blog/tags/${x.id}`))
        .set(admin.auth)
        .expect(204);
      expect(await t.app.get(DataSource).query(`SELECT slug FROM tag_slug_history WHERE tag_id = $1`, [x.id])).toEqual([]);
    });

    it('404 with the spec text for slugs that never moved or are malformed', async () => {
      for (const slug of ['never-existed', 'Bad_Slug', 'x'.repeat(300)]) {
        expect((await t.http.get(api(`/blog/tags/moved/${slug}`)).expect(404)).body).toEqual(err(404, `Tag "${slug}" not found`));
      }
    });
  });

  describe('deactivate, activate and delete', () => {
    it('401/403/404 on every admin action', async () => {
      const x = await tag();
      const calls = [
        () => t.http.delete(api(`/blog/tags/${x.id}`)),
        () => t.http.delete(api(`/blog/tags/${x.id}/deactivate`)),
        () => t.http.post(api(`/blog/tags/${x.id}/activate`)),
      ];
      for (const call of calls) {
        expect((await call().expect(401)).body).toEqual(err(401, AUTH_REQUIRED));
        expect((await call().set(reader.auth).expect(403)).body).toEqual(err(403, FORBIDDEN));
      }
      await t.http.delete(api('/blog/tags/999999')).set(admin.auth).expect(404);
      await t.http.delete(api('/blog/tags/999999/deactivate')).set(admin.auth).expect(404);
      await t.http.post(api('/blog/tags/999999/activate')).set(admin.auth).expect(404);
    });

    it('an inactive tag leaves public pages and cannot be attached; activation brings it back', async () => {
      const x = await tag();
      const p = await post([x.slug]);
      events.length = 0;
      let res = await t.http
        .delete(api(`/blog/tags/${x.id}/deactivate`))
        .set(admin.auth)
        .expect(200);
      expect(res.body).toMatchObject({ message: 'Tag deactivated.', data: { isActive: false, status: 'INACTIVE' } });
      expect(events).toEqual([{ kind: 'tag', tagId: x.id, slugs: [x.slug] }]);
      expect((await t.http.get(api(`/blog/posts/public/tag/${x.slug}`)).expect(404)).body).toEqual(err(404, `Tag "${x.slug}" not found`));
      expect((await t.http.get(api(`/blog/posts/public/${p.slug}`)).expect(200)).body.data.tags).toEqual([]);
      const attach = await t.http
        .post(api('/blog/posts'))
        .set(admin.auth)
        .send({ title: `T ${uid()}`, content: 'c', tagSlugs: [x.slug] })
        .expect(201);
      expect(attach.body.message).toBe(`Post created. Skipped unknown or inactive tags: ${x.slug}`);

      res = await t.http
        .post(api(`/blog/tags/${x.id}/activate`))
        .set(admin.auth)
        .expect(200);
      expect(res.body).toMatchObject({ message: 'Tag activated.', data: { isActive: true, status: 'ACTIVE', postCount: 1 } });
      await t.http.get(api(`/blog/posts/public/tag/${x.slug}`)).expect(200);
    });

    it('deleting an active tag used by posts is 409 (deactivate instead); unused or inactive tags go with 204', async () => {
      const used = await tag();
      await post([used.slug]);
      await post([used.slug], 'DRAFT');
      expect(
        (
          await t.http
            .delete(api(`/blog/tags/${used.id}`))
            .set(admin.auth)
            .expect(409)
        ).body,
      ).toEqual(err(409, 'Tag is used by 2 posts. Deactivate it instead.'));
      await t.http
        .delete(api(`/blog/tags/${used.id}/deactivate`))
        .set(admin.auth)
        .expect(200);
      events.length = 0;
      const res = await t.http
        .delete(api(`/blog/tags/${used.id}`))
        .set(admin.auth)
        .expect(204);
      expect(res.text).toBe('');
      expect(events).toEqual([{ kind: 'tag', tagId: used.id, slugs: [used.slug] }]);
      await t.http.get(api(`/blog/tags/${used.id}`)).expect(404);

      const unused = await tag();
      await t.http
        .delete(api(`/blog/tags/${unused.id}`))
        .set(admin.auth)
        .expect(204);

      const single = await tag();
      await post([single.slug]);
      expect(
        (
          await t.http
            .delete(api(`/blog/tags/${single.id}`))
            .set(admin.auth)
            .expect(409)
        ).body.message,
      ).toBe('Tag is used by 1 post. Deactivate it instead.');
    });
  });
});
