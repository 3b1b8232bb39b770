import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { SaxesParser } from 'saxes';
import { PostStatus } from '../../posts/entities/post.entity';
import { wordpressPaths } from '../../posts/old-path';
import { decodeEntities, htmlToMarkdown, htmlToText } from '../html-to-markdown';
import {
  BadSourceFile,
  ITEM_TEXT_MAX,
  OVERSIZED_ITEM,
  ownCopy,
  SourceComment,
  SourcePost,
  SourceRecord,
  SourceSkip,
  SourceSurvey,
} from './source-records';

/** An element of the export, as far as the reader keeps it: its name, attributes, text and children. */
interface XmlNode {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlNode[];
  /** Set on a record whose text passed ITEM_TEXT_MAX: the rest of its text was not kept. */
  oversized?: boolean;
}

/** The cap on one record's text is the same for every source (ITEM_TEXT_MAX in source-records). */
export { ITEM_TEXT_MAX };

/** Children of <channel> the reader hands over whole (everything else is skipped as it streams). */
const CHANNEL_RECORDS = new Set([
  'item',
  'wp:author',
  'wp:category',
  'wp:tag',
  'wp:term',
  'wp:base_site_url',
  'wp:base_blog_url',
  'wp:wxr_version',
  'link',
]);

/** WordPress statuses and what they become here; the others (trash, auto-draft, inherit) are skipped. */
const STATUSES: Record<string, PostStatus> = {
  publish: PostStatus.PUBLISHED,
  draft: PostStatus.DRAFT,
  pending: PostStatus.PENDING_REVIEW,
  private: PostStatus.PRIVATE,
  future: PostStatus.DRAFT,
};

/** Post types brought over: posts and pages (both become posts here). */
const CONTENT_TYPES = new Set(['post', 'page']);

/**
 * Streams the channel's records of a WXR file: each child of <channel> the reader wants arrives
 * whole (an <item> with its comments), the rest is never kept. A malformed file throws
 * BadSourceFile naming the line.
 */
async function* channelNodes(path: string): AsyncGenerator<XmlNode> {
  const parser = new SaxesParser({ position: true });
  const stack: XmlNode[] = [];
  const names: string[] = [];
  const done: XmlNode[] = [];
  let sawRss = false;
  /** Characters of text kept for the record being read. */
  let recordText = 0;
  parser.on('opentag', (tag) => {
    names.push(tag.name);
    if (names.length === 1) {
      if (tag.name !== 'rss') throw new BadSourceFile(`This is not a WordPress export: the file starts with <${tag.name}>, not <rss>.`);
      sawRss = true;
    }
    const collecting = stack.length > 0 || (names.length === 3 && names[1] === 'channel' && CHANNEL_RECORDS.has(tag.name));
    if (!collecting) return;
    const node: XmlNode = { name: tag.name, attributes: tag.attributes as Record<string, string>, text: '', children: [] };
    stack[stack.length - 1]?.children.push(node);
    stack.push(node);
  });
  const addText = (text: string) => {
    const node = stack[stack.length - 1];
    if (!node || stack[0].oversized) return;
    recordText += text.length;
    if (recordText > ITEM_TEXT_MAX) stack[0].oversized = true;
    else node.text += text;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    names.pop();
    if (!stack.length) return;
    const node = stack.pop()!;
    // Only the record itself is handed over; its children stay inside it.
    if (!stack.length) {
      done.push(node);
      recordText = 0;
    }
  });
  parser.on('error', (error) => {
    throw new BadSourceFile(`The file is not well-formed XML (line ${parser.line}): ${error.message.replace(/^.*?:\d+:\d+: /, '')}`);
  });
  // Small reads: parsing one is a short turn on the event loop the server's requests share.
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 16 * 1024 });
  try {
    for await (const chunk of stream) {
      try {
        parser.write(chunk as string);
      } catch (error) {
        throw error instanceof BadSourceFile
          ? error
          : new BadSourceFile(
              `The file is not well-formed XML (line ${parser.line}): ${(error as Error).message.replace(/^.*?:\d+:\d+: /, '')}`,
            );
      }
      limitParserBuffers(parser, stack[0]);
      while (done.length) yield done.shift()!;
    }
    try {
      parser.close();
    } catch (error) {
      throw error instanceof BadSourceFile
        ? error
        : new BadSourceFile(`The file ends before its XML does: ${(error as Error).message.replace(/^.*?:\d+:\d+: /, '')}`);
    }
    while (done.length) yield done.shift()!;
  } finally {
    stream.destroy();
  }
  if (!sawRss) throw new BadSourceFile('This is not a WordPress export: the file is empty.');
}

/** The parser's buffers (saxes keeps a text, CDATA section, attribute value or comment whole until it ends). */
interface SaxesBuffers {
  text: string;
  name: string;
}

/**
 * Keeps the parser from buffering past the cap: a text, CDATA section, attribute value or comment
 * longer than ITEM_TEXT_MAX is emptied as it grows (the record it is in is marked oversized and
 * skipped; outside a record it was never wanted). A tag or attribute name that long is no export.
 */
function limitParserBuffers(parser: SaxesParser, record: XmlNode | undefined): void {
  const buffers = parser as unknown as SaxesBuffers;
  if (buffers.text.length > ITEM_TEXT_MAX) {
    buffers.text = '';
    if (record) record.oversized = true;
  }
  if (buffers.name.length > 1024 * 1024)
    throw new BadSourceFile(`The file is not a WordPress export (line ${parser.line}): a tag or attribute name longer than a megabyte.`);
}

const child = (node: XmlNode, name: string): XmlNode | undefined => node.children.find((c) => c.name === name);
const textOf = (node: XmlNode, name: string): string => child(node, name)?.text.trim() ?? '';
const rawOf = (node: XmlNode, name: string): string => child(node, name)?.text ?? '';

/** A WordPress GMT time ('2014-03-09 10:20:00'); the zero date of drafts is no time. */
function gmtDate(value: string): Date | null {
  if (!value || value.startsWith('0000')) return null;
  const date = new Date(`${value.replace(' ', 'T')}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** What the first pass learns besides the survey: each attachment's file address by its post id, and the ids posts use as featured images. */
export interface WxrSurvey extends SourceSurvey {
  attachments: Map<string, string>;
  featured?: Set<string>;
}

/**
 * The first pass: the file is a WXR export (an <rss> with a wxr_version), names its site, holds
 * this many posts and pages, and these attachments (a featured image is found by its id). Reads
 * the whole file, so a malformed one fails here, before anything is written.
 */
export async function surveyWxr(path: string): Promise<WxrSurvey> {
  const attachments = new Map<string, string>();
  const featured = new Set<string>();
  let site = '';
  let version = '';
  let posts = 0;
  const digest = createHash('sha256');
  for await (const node of channelNodes(path)) {
    if (node.name === 'wp:wxr_version') version = node.text.trim();
    else if (node.name === 'wp:base_blog_url' || (node.name === 'wp:base_site_url' && !site) || (node.name === 'link' && !site))
      site = node.text.trim();
    else if (node.name === 'item') {
      const type = textOf(node, 'wp:post_type');
      const id = textOf(node, 'wp:post_id');
      digest.update(id);
      if (type === 'attachment') {
        const url = textOf(node, 'wp:attachment_url') || textOf(node, 'guid');
        if (id && url) attachments.set(ownCopy(id), ownCopy(url));
      } else if (CONTENT_TYPES.has(type)) {
        posts += 1;
        for (const meta of node.children)
          if (meta.name === 'wp:postmeta' && textOf(meta, 'wp:meta_key') === '_thumbnail_id')
            featured.add(ownCopy(textOf(meta, 'wp:meta_value')));
      }
    }
  }
  if (!version)
    throw new BadSourceFile('This is not a WordPress export: it has no <wp:wxr_version> (export it from Tools → Export in WordPress).');
  return {
    origin: ownCopy(site ? `wordpress:${site.replace(/\/+$/, '').toLowerCase()}` : `wordpress:sha256:${digest.digest('hex')}`),
    posts,
    attachments,
    featured,
  };
}

/** Why a WordPress comment is not brought over, or null when it is a reader's comment. */
function commentRefusal(approved: string, type: string): string | null {
  if (type === 'pingback' || type === 'trackback') return `A ${type} (another site's notice that it linked here), not a reader's comment.`;
  if (approved === 'spam') return 'Marked as spam on the former site.';
  if (approved === 'trash' || (approved !== '1' && approved !== '0'))
    return `Its status '${approved}' (in the trash) has no equivalent here.`;
  return null;
}

/** The comments WordPress has on an item that are not readers' comments (pingbacks, trackbacks, spam, trash), for the report. */
function refusedComments(item: XmlNode, postTitle: string): SourceSkip[] {
  const result: SourceSkip[] = [];
  for (const node of item.children) {
    if (node.name !== 'wp:comment') continue;
    const reason = commentRefusal(textOf(node, 'wp:comment_approved'), textOf(node, 'wp:comment_type'));
    if (reason)
      result.push({
        kind: 'comment',
        sourceId: textOf(node, 'wp:comment_id'),
        title: `${decodeEntities(textOf(node, 'wp:comment_author')) || 'Anonymous'} on '${postTitle}'`,
        reason,
      });
  }
  return result;
}

/** A title as the plain text titles are here: tags dropped (WordPress allows `<em>` in one), entities decoded. */
export function plainTitle(html: string): string {
  return decodeEntities(html.replace(/<\/?[a-z][^>]*>/gi, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

function comments(item: XmlNode): SourceComment[] {
  const result: SourceComment[] = [];
  for (const node of item.children) {
    if (node.name !== 'wp:comment') continue;
    const approved = textOf(node, 'wp:comment_approved');
    const type = textOf(node, 'wp:comment_type');
    // Spam, trash, pingbacks and trackbacks are not readers' comments (reported by refusedComments).
    if (commentRefusal(approved, type)) continue;
    const parent = textOf(node, 'wp:comment_parent');
    result.push({
      sourceId: textOf(node, 'wp:comment_id'),
      parentSourceId: parent && parent !== '0' ? parent : null,
      content: htmlToText(rawOf(node, 'wp:comment_content')),
      authorName: decodeEntities(textOf(node, 'wp:comment_author')) || 'Anonymous',
      authorEmail: textOf(node, 'wp:comment_author_email') || null,
      createdAt: gmtDate(textOf(node, 'wp:comment_date_gmt')),
      approved: approved === '1',
    });
  }
  return result;
}

function post(item: XmlNode, attachments: Map<string, string>): SourcePost {
  const sourceStatus = textOf(item, 'wp:status');
  const slug = decodeURIComponentSafe(textOf(item, 'wp:post_name'));
  const localDate = textOf(item, 'wp:post_date');
  const createdAt = gmtDate(textOf(item, 'wp:post_date_gmt')) ?? gmtDate(localDate);
  // A password-protected post was not public there: it comes in as a draft, never published with its text.
  const passwordProtected = textOf(item, 'wp:post_password') !== '' && STATUSES[sourceStatus] !== undefined;
  const status = passwordProtected ? PostStatus.DRAFT : (STATUSES[sourceStatus] ?? null);
  const meta = new Map(
    item.children.filter((c) => c.name === 'wp:postmeta').map((m) => [textOf(m, 'wp:meta_key'), textOf(m, 'wp:meta_value')]),
  );
  const thumbnailId = meta.get('_thumbnail_id');
  const terms = item.children.filter(
    (c) => c.name === 'category' && (c.attributes.domain === 'category' || c.attributes.domain === 'post_tag'),
  );
  const excerpt = htmlToText(rawOf(item, 'excerpt:encoded'));
  return {
    sourceId: textOf(item, 'wp:post_id'),
    title: plainTitle(textOf(item, 'title')) || '(untitled)',
    slug: slug || null,
    markdown: htmlToMarkdown(rawOf(item, 'content:encoded'), { wordpress: true }),
    summary: excerpt || null,
    status,
    sourceStatus,
    createdAt,
    updatedAt: gmtDate(textOf(item, 'wp:post_modified_gmt')),
    publishedAt: status === PostStatus.PUBLISHED || status === PostStatus.PRIVATE ? createdAt : null,
    authorSourceId: textOf(item, 'dc:creator') || null,
    // Categories and tags both become tags; one with the same slug in both is one tag.
    tagSourceIds: [
      ...new Set(
        terms
          .map((term) => term.attributes.nicename)
          .filter(Boolean)
          .map((slug) => decodeURIComponentSafe(slug)),
      ),
    ],
    inlineTags: terms
      .filter((term) => term.attributes.nicename)
      .map((term) => ({
        sourceId: decodeURIComponentSafe(term.attributes.nicename),
        slug: decodeURIComponentSafe(term.attributes.nicename),
        name: decodeEntities(term.text.trim()) || term.attributes.nicename,
      })),
    featuredImage: thumbnailId ? (attachments.get(thumbnailId) ?? null) : null,
    oldPaths: status === PostStatus.PUBLISHED && slug ? wordpressPaths(slug, localDate, textOf(item, 'link') || null) : [],
    comments: comments(item),
    changes: passwordProtected
      ? [
          {
            from: `${sourceStatus}, password-protected`,
            to: PostStatus.DRAFT,
            reason: 'Password-protected on the former site: imported as a draft, so its text is not made public',
          },
        ]
      : [],
  };
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The second pass: authors, categories and tags (they come first in an export), then each post or
 * page with its comments. Attachments and other post types (menus, blocks) are passed over.
 */
export async function* readWxr(path: string, survey: WxrSurvey): AsyncGenerator<SourceRecord> {
  for await (const node of channelNodes(path)) {
    switch (node.name) {
      case 'wp:author': {
        const login = textOf(node, 'wp:author_login');
        const display = decodeEntities(textOf(node, 'wp:author_display_name'));
        const first = decodeEntities(textOf(node, 'wp:author_first_name'));
        const last = decodeEntities(textOf(node, 'wp:author_last_name'));
        yield {
          type: 'user',
          user: {
            sourceId: login,
            fullName: display || [first, last].filter(Boolean).join(' ') || login,
            email: textOf(node, 'wp:author_email'),
          },
        };
        break;
      }
      case 'wp:category':
        yield {
          type: 'tag',
          tag: {
            sourceId: decodeURIComponentSafe(textOf(node, 'wp:category_nicename')),
            name: decodeEntities(textOf(node, 'wp:cat_name')),
            slug: decodeURIComponentSafe(textOf(node, 'wp:category_nicename')),
            description: textOf(node, 'wp:category_description') || null,
          },
        };
        break;
      case 'wp:tag':
        yield {
          type: 'tag',
          tag: {
            sourceId: decodeURIComponentSafe(textOf(node, 'wp:tag_slug')),
            name: decodeEntities(textOf(node, 'wp:tag_name')),
            slug: decodeURIComponentSafe(textOf(node, 'wp:tag_slug')),
            description: textOf(node, 'wp:tag_description') || null,
          },
        };
        break;
      case 'item': {
        const type = textOf(node, 'wp:post_type');
        const id = textOf(node, 'wp:post_id');
        const title = plainTitle(textOf(node, 'title')) || '(untitled)';
        if (CONTENT_TYPES.has(type)) {
          if (node.oversized) {
            yield { type: 'skip', skip: { kind: 'post', sourceId: id, title, reason: OVERSIZED_ITEM } };
            break;
          }
          const record = post(node, survey.attachments);
          for (const skip of refusedComments(node, record.title)) yield { type: 'skip', skip };
          yield { type: 'post', post: record };
        } else if (type === 'attachment') {
          if (!survey.featured?.has(id))
            yield {
              type: 'skip',
              skip: {
                kind: 'image',
                sourceId: id,
                title: textOf(node, 'wp:attachment_url') || title,
                reason:
                  'A media file no post has as its featured image: only featured images are brought over (images in a post keep their address).',
              },
            };
        } else {
          yield {
            type: 'skip',
            skip: { kind: 'post', sourceId: id, title, reason: `A WordPress '${type || 'unknown'}' item (not a post or page).` },
          };
        }
        break;
      }
      default:
        break;
    }
  }
}
