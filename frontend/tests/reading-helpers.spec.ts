import { expect, test } from './fixtures';
import { ApiError } from '../src/lib/api/errors';
import { cardReadingTime, compactCount, formatCount, isValidSlug, readingTimeOf, titleCaseSlug } from '../src/lib/format';
import { countNoun, Nouns } from '../src/lib/texts/nouns';
import { vietnameseNoun } from '../../isomorphic/plural';
import { PostsTexts } from '../src/features/posts/texts';
import { SearchTexts } from '../src/features/search/texts';
import { AdminActivityTexts } from '../src/features/admin-dashboard/texts';
import { HomeReaderTexts } from '../src/features/reader/texts';
import { pageApi } from '../src/lib/api/page-client';
import { renderedPageOf } from '../src/features/comments/rendered-page';
import type { CommentNode } from '../src/features/comments/comment-api';
import { conventionalPageAddress, pageHref, pageIndex, pageRedirect } from '../src/lib/paging';
import { load, retryHref } from '../src/lib/settle';
import type { GatewayCall, PageGateway } from '../../isomorphic/gateway.types';
import { xmlEscape } from '../src/lib/xml';
import { formatViDate, formatViLongDate } from '../src/lib/dates';

/** The reading pages' pure rules (no browser page needed): formatters, slugs, paging, XML. */

test.describe('reading helpers', () => {
  test('card read time is the summary length divided by 200, rounded up, at least 1 (docs/requirements.md#reading-time)', () => {
    expect(cardReadingTime(undefined)).toBe(1);
    expect(cardReadingTime('')).toBe(1);
    expect(cardReadingTime('x'.repeat(200))).toBe(1);
    expect(cardReadingTime('x'.repeat(201))).toBe(2);
    expect(cardReadingTime('x'.repeat(1000))).toBe(5);
    expect(readingTimeOf('word '.repeat(401))).toBe(3);
    expect(readingTimeOf('')).toBe(1);
  });

  test('like counts read 99+ above 99 on small screens; full counts use the Vietnamese separator', () => {
    expect(compactCount(undefined)).toBe('0');
    expect(compactCount(99)).toBe('99');
    expect(compactCount(100)).toBe('99+');
    expect(formatCount(1234567)).toBe('1.234.567');
    expect(countNoun(1, Nouns.POST)).toBe('1 post');
    expect(countNoun(3, Nouns.POST)).toBe('3 posts');
  });

  test('dates use the Vietnamese locale in Vietnam time', () => {
    expect(formatViDate('2026-03-05T20:00:00Z')).toBe('06/03/2026');
    expect(formatViLongDate('2026-03-05T10:00:00Z')).toBe('5 tháng 3, 2026');
    expect(formatViDate(null)).toBe('');
    expect(formatViDate('not a date')).toBe('');
  });

  test('tag headings title-case the slug', () => {
    expect(titleCaseSlug('web-development')).toBe('Web Development');
    expect(titleCaseSlug('nodejs')).toBe('Nodejs');
    expect(titleCaseSlug('AI--ml')).toBe('Ai Ml');
  });

  test('post slugs are lowercase letters, digits and single hyphens', () => {
    for (const good of ['hello', 'hello-world-2', 'a'.repeat(200)]) expect(isValidSlug(good), good).toBe(true);
    for (const bad of [undefined, '', 'Hello', 'hello_world', '-hello', 'hello-', 'a--b', 'a b', 'a'.repeat(201), 'ü'])
      expect(isValidSlug(bad), String(bad)).toBe(false);
  });

  test('?page counts from 1 (the API from 0); anything else reads as the first page', () => {
    const page = (query: string) => pageIndex(new URL(`http://x/blog${query}`).searchParams);
    expect(page('')).toBe(0);
    expect(page('?page=1')).toBe(0);
    expect(page('?page=2')).toBe(1);
    expect(page('?page=3&page=9')).toBe(2);
    expect(page('?page=007')).toBe(6);
    for (const bad of ['?page=0', '?page=-1', '?page=abc', '?page=1.5', '?page=', '?page=99999999']) expect(page(bad), bad).toBe(0);
    expect(retryHref(new URL('http://x/blog/tag/web?page=2'))).toBe('/blog/tag/web?page=2');
  });

  test('page addresses: no ?page on the first page, 1-based after it, other values kept', () => {
    expect(pageHref('/blog', 0)).toBe('/blog');
    expect(pageHref('/blog', 1)).toBe('/blog?page=2');
    expect(pageHref('/blog/tag/web', 4)).toBe('/blog/tag/web?page=5');
    expect(pageHref(new URL('http://x/liked-posts?sortBy=postTitle&page=3&size=5'), 0)).toBe('/liked-posts?sortBy=postTitle&size=5');
    expect(pageHref(new URL('http://x/liked-posts?sortBy=postTitle&page=3&size=5'), 9)).toBe(
      '/liked-posts?sortBy=postTitle&size=5&page=10',
    );
    expect(pageHref('/my-comments?sort=oldest', 1)).toBe('/my-comments?sort=oldest&page=2');
  });

  test("an address whose ?page is written another way goes to the convention's (301)", () => {
    const fix = (query: string) => conventionalPageAddress(new URL(`http://x/blog${query}`));
    for (const kept of ['', '?page=2', '?page=1234567', '?size=5&page=3']) expect(fix(kept), kept).toBeUndefined();
    expect(fix('?page=1')).toBe('/blog');
    expect(fix('?page=0')).toBe('/blog');
    expect(fix('?size=5&page=1')).toBe('/blog?size=5');
    expect(fix('?page=01')).toBe('/blog');
    expect(fix('?page=007')).toBe('/blog?page=7');
    expect(fix('?page=3&page=4')).toBe('/blog?page=3');
    for (const bad of ['?page=-1', '?page=abc', '?page=1.5', '?page=', '?page=99999999']) expect(fix(bad), bad).toBe('/blog');

    const redirects: [string, number | undefined][] = [];
    const context = (query: string, method = 'GET') => ({
      url: new URL(`http://x/blog${query}`),
      request: new Request(`http://x/blog${query}`, { method }),
      redirect: (path: string, status?: number) => {
        redirects.push([path, status]);
        return new Response(null, { status, headers: { Location: path } });
      },
    });
    expect(pageRedirect(context('?page=2'))).toBeUndefined();
    expect(pageRedirect(context('?page=0', 'POST'))).toBeUndefined();
    expect(pageRedirect(context('?page=0'))?.status).toBe(301);
    expect(pageRedirect(context('?page=1', 'HEAD'))?.status).toBe(301);
    expect(redirects).toEqual([
      ['/blog', 301],
      ['/blog', 301],
    ]);
  });

  test('XML escaping covers markup, quotes and characters XML forbids', () => {
    expect(xmlEscape(`<a href="x">Tom & Jerry's</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;');
    expect(xmlEscape('bell\u0007 and tab\t')).toBe('bell and tab\t');
  });

  test("load() over the page gateway: the data, or an ApiError with the server's status and message, never throws", async () => {
    const calls: GatewayCall[] = [];
    const gateway: PageGateway = {
      call: async (call) => {
        calls.push(call);
        if (call.path === '/api/v1/blog/posts/public/latest-stories')
          return { status: 200, body: { success: true, data: [], message: 'OK', status: 200, errors: null }, headers: [] };
        if (call.path === '/api/v1/blog/posts/public/tag/{slug}')
          return {
            status: 404,
            body: { success: false, data: null, message: 'Tag "x" not found', status: 404, errors: null },
            headers: [],
          };
        throw new Error('the server broke');
      },
      withCookies: () => gateway,
    };
    const api = pageApi(gateway);
    expect(await load(api.GET('/api/v1/blog/posts/public/latest-stories'))).toEqual({ ok: true, data: [] });
    const failed = await load(
      api.GET('/api/v1/blog/posts/public/tag/{slug}', { params: { path: { slug: 'x' }, query: { page: 0, size: 12 } } }),
    );
    expect(failed.ok).toBe(false);
    if (!failed.ok) {
      expect(failed.error).toBeInstanceOf(ApiError);
      expect([failed.error.status, failed.error.message]).toEqual([404, 'Tag "x" not found']);
    }
    expect(calls[1]).toEqual({
      method: 'GET',
      path: '/api/v1/blog/posts/public/tag/{slug}',
      params: { path: { slug: 'x' }, query: { page: 0, size: 12 } },
      body: undefined,
    });
    const broken = await load(api.GET('/api/v1/blog/authors'));
    expect(broken.ok ? undefined : broken.error.status).toBe(0);
  });

  test('the page client makes the same GET once per page request, and reads afresh after a write', async () => {
    const calls: string[] = [];
    const ok = {
      status: 200,
      body: { success: true, data: { count: 3 }, message: 'OK', status: 200, errors: null },
      headers: [] as [string, string][],
    };
    const gateway: PageGateway = {
      call: async (call) => {
        calls.push(`${call.method} ${call.path} ${JSON.stringify(call.params?.query ?? {})}`);
        return ok;
      },
      withCookies: () => gateway,
    };
    const api = pageApi(gateway);
    const [first, second] = await Promise.all([
      load(api.GET('/api/v1/notifications/unread-count')),
      load(api.GET('/api/v1/notifications/unread-count')),
    ]);
    expect(first).toEqual({ ok: true, data: { count: 3 } });
    expect(second).toEqual(first);
    await load(api.GET('/api/v1/notifications', { params: { query: { page: 0, size: 20 } } }));
    await load(api.GET('/api/v1/notifications', { params: { query: { page: 1, size: 20 } } }));
    await api.POST('/api/v1/notifications/read-all', {});
    await load(api.GET('/api/v1/notifications/unread-count'));
    expect(calls).toEqual([
      'GET /api/v1/notifications/unread-count {}',
      'GET /api/v1/notifications {"page":0,"size":20}',
      'GET /api/v1/notifications {"page":1,"size":20}',
      'POST /api/v1/notifications/read-all {}',
      'GET /api/v1/notifications/unread-count {}',
    ]);
    // Another page request (a new client) reads for itself.
    await load(pageApi(gateway).GET('/api/v1/notifications/unread-count'));
    expect(calls).toHaveLength(6);
  });

  test("the comments' first page goes to the island as ids, counts and flags, never its text", () => {
    const at = '2026-11-28T10:00:00.000Z';
    const comment = (id: number, extra: Partial<CommentNode> = {}): CommentNode => ({
      id,
      postId: 7,
      parentId: null,
      level: 1,
      author: { id: 40 + id, fullName: `Reader ${id}`, avatar: null, isVerified: false },
      content: `Text of comment ${id}`,
      createdAt: at,
      updatedAt: at,
      deleted: false,
      moderation: 'VISIBLE',
      canReport: false,
      canHide: false,
      replyCount: 0,
      replies: [],
      ...extra,
    });
    const reply = comment(2, { parentId: 1, level: 2, updatedAt: '2026-11-28T11:00:00.000Z', canReport: true });
    const page = renderedPageOf({
      last: false,
      comments: [comment(1, { replies: [reply], replyCount: 3 }), comment(3, { author: null, deleted: true, content: '' })],
    });
    expect(page).toEqual({
      last: false,
      comments: [
        { id: 1, authorId: 41, replyCount: 3 },
        { id: 2, authorId: 42, updatedAt: '2026-11-28T11:00:00.000Z', canReport: true },
        { id: 3, authorId: null, deleted: true },
      ],
    });
    expect(JSON.stringify(page)).not.toContain('Text of comment');
    expect(JSON.stringify(page)).not.toContain('Reader');
  });

  test('a count meets its noun by the plural rules of its language (no "1 likes")', () => {
    expect(countNoun(1, Nouns.LIKE)).toBe('1 like');
    expect(countNoun(2, Nouns.LIKE)).toBe('2 likes');
    expect(countNoun(0, Nouns.LIKE)).toBe('0 likes');
    expect(countNoun(1, Nouns.REPLY)).toBe('1 reply');
    expect(HomeReaderTexts.replies(2)).toBe('2 replies');
    expect(PostsTexts.moreLoaded(1)).toBe('1 more post loaded');
    expect(SearchTexts.resultCount(1, 'k')).toBe('1 result for “k”');
    expect(SearchTexts.resultCount(1234, 'k')).toBe('1,234 results for “k”');
    expect(AdminActivityTexts.totals(1, 1, 1, 1)).toBe('Last 30 days: 1 new user, 1 post, 1 comment, 1 like.');
    expect(AdminActivityTexts.totals(2, 0, 3, 4)).toBe('Last 30 days: 2 new users, 0 posts, 3 comments, 4 likes.');
    // Vietnamese has one form for every count.
    const luotThich = vietnameseNoun('lượt thích');
    expect(countNoun(1, luotThich)).toBe('1 lượt thích');
    expect(countNoun(2, luotThich)).toBe('2 lượt thích');
  });
});
