import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { AUTHOR_PAGE } from '../../../isomorphic/public-pages';
import { SLUG_BODY } from '../../../isomorphic/slug';

/**
 * How a counted view is described (docs/analytics.md, 'What is counted'): the kind of public page,
 * where the reader came from (grouped from the Referer and the `ref` parameter) and the class of
 * device. Pure functions, run at flush time, never on the request's path.
 */

/** The kinds of counted page: feeds and sitemaps are read by programs, not people, and are not counted. */
export type PageKind = 'post' | 'home' | 'list' | 'tag' | 'authors' | 'author' | 'search' | 'about';

/** Source groups, in the order the pages list them. */
export const SOURCE_GROUPS = ['direct', 'search', 'social', 'fediverse', 'newsletter', 'internal', 'other'] as const;
export type SourceGroup = (typeof SOURCE_GROUPS)[number];

export const DEVICE_CLASSES = ['desktop', 'mobile', 'tablet'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

const POST_PAGE = new RegExp(`^/blog/(${SLUG_BODY})/?$`);
const TAG_PAGE = /^\/(?:blog\/)?tag\/[^/]+\/?$/;

/** The slug of a post page path (`/blog/{slug}`, not `/blog/tag`), else undefined: one regular expression, cheap enough for every cached answer. */
export function postSlugOfPath(path: string): string | undefined {
  const slug = POST_PAGE.exec(path)?.[1];
  return slug === 'tag' ? undefined : slug;
}

/** The kind of a public page path (no query), with the post's slug for a post page; undefined: not counted (feeds, sitemaps). */
export function pageKindOf(path: string): { kind: PageKind; slug?: string } | undefined {
  const post = POST_PAGE.exec(path);
  if (post && post[1] !== 'tag') return { kind: 'post', slug: post[1] };
  const bare = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  if (bare === '/' || bare === '/home') return { kind: 'home' };
  if (bare === '/blog') return { kind: 'list' };
  if (bare === '/authors') return { kind: 'authors' };
  if (bare === '/search') return { kind: 'search' };
  if (bare === '/about') return { kind: 'about' };
  if (TAG_PAGE.test(path)) return { kind: 'tag' };
  if (AUTHOR_PAGE.test(path) && !path.endsWith('.xml')) return { kind: 'author' };
  return undefined;
}

/** Whether the user agent is a crawler, a monitor or a script (isbot), or missing (no browser sends none). */
export function isBotAgent(userAgent: string | undefined): boolean {
  return !userAgent || isbot(userAgent);
}

/** desktop, mobile or tablet (ua-parser-js: phones, wearables and the like are mobile; smart TVs and consoles desktop). */
export function deviceClassOf(userAgent: string): DeviceClass {
  const type = new UAParser(userAgent).getDevice().type;
  if (type === 'tablet') return 'tablet';
  if (type === 'mobile' || type === 'wearable' || type === 'xr') return 'mobile';
  return 'desktop';
}

/** Search engines, by host (a suffix match on the registrable part). */
const SEARCH_HOSTS =
  /(?:^|\.)(?:google\.[a-z.]+|bing\.com|duckduckgo\.com|search\.yahoo\.com|yahoo\.co\.jp|yandex\.[a-z.]+|baidu\.com|ecosia\.org|qwant\.com|search\.brave\.com|startpage\.com|kagi\.com|naver\.com|seznam\.cz|coccoc\.com|perplexity\.ai|you\.com)$/;
/** Social sites and link aggregators (the fediverse apart). */
const SOCIAL_HOSTS =
  /(?:^|\.)(?:facebook\.com|fb\.me|instagram\.com|t\.co|twitter\.com|x\.com|linkedin\.com|lnkd\.in|reddit\.com|news\.ycombinator\.com|lobste\.rs|bsky\.app|threads\.net|pinterest\.[a-z.]+|tumblr\.com|youtube\.com|tiktok\.com|vk\.com|weibo\.com|zalo\.me|telegram\.org|t\.me|whatsapp\.com|discord\.com|substack\.com)$/;
/**
 * Fediverse instances: the names the big servers and software go by (mastodon.*, *.social,
 * pixelfed, misskey, lemmy…), or a Referer path shaped like a fediverse post or profile
 * (`/@name/123…`, `/notice/…`, `/notes/…`, `/users/name/statuses/…`, `/web/…`) when the
 * instance sends one. Browsers usually send only the origin across sites, so the host list does
 * most of the work; links can say so themselves with `?ref=fediverse`.
 */
const FEDIVERSE_HOSTS =
  /(?:^|\.)(?:mastodon\.[a-z.]+|[a-z0-9-]*mastodon[a-z0-9-]*\.[a-z.]+|mstdn\.[a-z.]+|[a-z0-9-]+\.social|fosstodon\.org|hachyderm\.io|infosec\.exchange|mas\.to|techhub\.social|troet\.cafe|chaos\.social|mastodon\.online|pixelfed\.[a-z.]+|misskey\.[a-z.]+|lemmy\.[a-z.]+|lemmy\.world|kbin\.[a-z.]+|mbin\.[a-z.]+|pleroma\.[a-z.]+|akkoma\.[a-z.]+|friendica\.[a-z.]+|sharkey\.[a-z.]+|calckey\.[a-z.]+|firefish\.[a-z.]+|gotosocial\.[a-z.]+|peertube\.[a-z.]+|writefreely\.[a-z.]+|toot\.[a-z.]+|ioc\.exchange|sigmoid\.social|universeodon\.com|mastodonapp\.uk|aus\.social|det\.social)$/;
const FEDIVERSE_PATH =
  /^\/(?:@[\w.-]+(?:@[\w.-]+)?\/\d+|notice\/|notes\/|objects\/|users\/[\w.-]+\/statuses\/|web\/(?:@|statuses\/)|deck\/@)/;

export interface ViewSource {
  group: SourceGroup;
  /** The referring host (search engine, social site, instance, other site); '' for direct, newsletter and internal views. */
  host: string;
}

/** The `ref` parameter of a page address ('' when none): `newsletter` (the newsletter's links) and `fediverse` name their source. */
function refParameter(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) return '';
  const match = /(?:^|&)ref=([^&#]*)/.exec(url.slice(query + 1));
  return match ? decodeURIComponent(match[1].replace(/\+/g, ' ')).toLowerCase().slice(0, 32) : '';
}

function hostOf(referer: string): { host: string; path: string } | undefined {
  try {
    const url = new URL(referer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return {
      host: url.hostname
        .toLowerCase()
        .replace(/^www\./, '')
        .slice(0, 253),
      path: url.pathname,
    };
  } catch {
    return undefined;
  }
}

/**
 * The source of a view: `?ref=newsletter` is the newsletter and `?ref=fediverse` the fediverse,
 * whatever the Referer; otherwise the Referer's host: none (or not a web address) is direct, the
 * site's own host internal, then search engines, social sites, fediverse instances, and any other
 * site by its host.
 */
export function sourceOf(url: string, referer: string | undefined, siteHost: string): ViewSource {
  const ref = refParameter(url);
  const from = referer ? hostOf(referer) : undefined;
  if (ref === 'newsletter') return { group: 'newsletter', host: '' };
  if (ref === 'fediverse' || ref === 'mastodon') return { group: 'fediverse', host: from && from.host !== siteHost ? from.host : '' };
  if (!from) return { group: 'direct', host: '' };
  if (from.host === siteHost) return { group: 'internal', host: '' };
  if (SEARCH_HOSTS.test(from.host)) return { group: 'search', host: from.host };
  if (SOCIAL_HOSTS.test(from.host)) return { group: 'social', host: from.host };
  if (FEDIVERSE_HOSTS.test(from.host) || FEDIVERSE_PATH.test(from.path)) return { group: 'fediverse', host: from.host };
  return { group: 'other', host: from.host };
}
