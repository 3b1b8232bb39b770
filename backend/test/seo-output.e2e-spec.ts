import { ContentChange, ContentEvents } from '../src/common/content-events';
import { createTestApp, TestApp } from './helpers/app';
import { api, uid } from './helpers/envelope';
import { createAdmin, TestUser } from './helpers/users';
import { sitemapSlugs as sitemapSlugsOf } from './helpers/sitemap';

/**
 * SEO output as the API gives it to the pages: the public post answer carries `seo`,
 * cards carry the canonical override (feeds link there), the sitemap leaves out noindex posts and
 * posts whose canonical URL points elsewhere, and an SEO-only edit of a published post is a `post`
 * change (which drops every cached page: the post's head, feeds, sitemap).
 */
describe('SEO output', () => {
  let t: TestApp;
  let admin: TestUser;
  const events: ContentChange[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    t.app.get(ContentEvents).onChange((change) => events.push(change));
    admin = await createAdmin(t);
  });
  afterAll(() => t.close());

  async function published(seo: Record<string, unknown> = {}): Promise<{ id: number; slug: string }> {
    const token = uid();
    const res = await t.http
      .post(api('/blog/posts'))
      .set(admin.auth)
      .send({ title: `Seo ${token}`, slug: `seo-${token}`, summary: 'Summary', content: 'Body', status: 'PUBLISHED', ...seo })
      .expect(201);
    return res.body.data;
  }

  const sitemapSlugs = (): Promise<string[]> => sitemapSlugsOf(t, 'posts');

  it('the public answer carries the SEO fields; cards carry the canonical override', async () => {
    const post = await published({
      metaTitle: 'Meta title',
      metaDescription: 'Meta description',
      canonicalUrl: 'https://elsewhere.example/original',
      noindex: true,
      socialImage: '/images/social.png',
    });
    const res = await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);
    expect(res.body.data.seo).toEqual({
      metaTitle: 'Meta title',
      metaDescription: 'Meta description',
      canonicalUrl: 'https://elsewhere.example/original',
      noindex: true,
      socialImage: '/images/social.png',
    });
    const list = await t.http.get(api('/blog/posts/public')).query({ page: 0, size: 100 }).expect(200);
    const card = (list.body.data.content as { slug: string; canonicalUrl: string | null }[]).find((item) => item.slug === post.slug);
    expect(card?.canonicalUrl).toBe('https://elsewhere.example/original');
  });

  it('the sitemap leaves out noindex posts and posts canonical elsewhere, and keeps a canonical URL naming the post itself', async () => {
    const plain = await published();
    const hidden = await published({ noindex: true });
    const elsewhere = await published({ canonicalUrl: 'https://elsewhere.example/first-printed-here' });
    const token = uid();
    const self = await published({ slug: `seo-self-${token}`, canonicalUrl: `http://localhost:3000/blog/seo-self-${token}` });
    const slugs = await sitemapSlugs();
    expect(slugs).toContain(plain.slug);
    expect(slugs).toContain(self.slug);
    expect(slugs).not.toContain(hidden.slug);
    expect(slugs).not.toContain(elsewhere.slug);

    // Clearing the fields brings them back.
    await t.http
      .put(api(`/blog/posts/${hidden.id}`))
      .set(admin.auth)
      .send({ noindex: false })
      .expect(200);
    await t.http
      .put(api(`/blog/posts/${elsewhere.id}`))
      .set(admin.auth)
      .send({ canonicalUrl: null })
      .expect(200);
    expect(await sitemapSlugs()).toEqual(expect.arrayContaining([hidden.slug, elsewhere.slug]));
  });

  it("an SEO-only edit of a published post is a 'post' change naming its page, before the answer", async () => {
    const post = await published();
    events.length = 0;
    await t.http
      .put(api(`/blog/posts/${post.id}`))
      .set(admin.auth)
      .send({ metaTitle: 'A better title for search' })
      .expect(200);
    expect(events).toContainEqual(expect.objectContaining({ kind: 'post', postId: post.id, slugs: [post.slug] }));
    const res = await t.http.get(api(`/blog/posts/public/${post.slug}`)).expect(200);
    expect(res.body.data.seo.metaTitle).toBe('A better title for search');
  });
});
