import { createReadStream } from 'node:fs';
import { PostStatus } from '../../posts/entities/post.entity';
import { htmlToMarkdown } from '../html-to-markdown';
import { JsonEvent, JsonPath, JsonPlan, JsonSyntaxError, jsonEvents } from './json-stream';
import { BadSourceFile, OVERSIZED_ITEM, ownCopy, SourcePost, SourceRecord, SourceSurvey, SourceTag } from './source-records';

/** The records of a Ghost export's `db[0].data` (Ghost 4–6) the importer reads. */
type GhostUser = { id: string; name: string; slug?: string; email: string; bio?: string | null };
type GhostTag = { id: string; name: string; slug: string; description?: string | null; visibility?: string };
/** A posts_tags or posts_authors row. */
type GhostLink = { post_id: string; tag_id?: string; author_id?: string; sort_order?: number };

interface GhostPost {
  id: string;
  title: string;
  slug: string;
  html?: string | null;
  mobiledoc?: string | null;
  lexical?: string | null;
  plaintext?: string | null;
  feature_image?: string | null;
  featured?: boolean | number;
  type?: string;
  status: string;
  created_at?: string | null;
  updated_at?: string | null;
  published_at?: string | null;
  custom_excerpt?: string | null;
  meta_title?: string | null;
  meta_description?: string | null;
  canonical_url?: string | null;
  author_id?: string;
}

/** Ghost statuses here: a scheduled post waits for its time as an approved one does. 'sent' (newsletter only) has no equivalent. */
const STATUSES: Record<string, PostStatus> = {
  published: PostStatus.PUBLISHED,
  draft: PostStatus.DRAFT,
  scheduled: PostStatus.PENDING_REVIEW,
};

const date = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
};

/** The text of a Lexical document (paragraphs, headings, lists), when the export has no html. */
function lexicalToMarkdown(source: string): string {
  const root = (JSON.parse(source) as { root?: LexicalNode }).root;
  const blocks: string[] = [];
  const text = (node: LexicalNode): string => (node.text ?? '') + (node.children ?? []).map(text).join('');
  for (const node of root?.children ?? []) {
    if (node.type === 'heading') blocks.push(`${'#'.repeat(Number(/\d/.exec(node.tag ?? 'h2')?.[0] ?? 2))} ${text(node)}`);
    else if (node.type === 'markdown' && node.markdown) blocks.push(node.markdown);
    else if (node.type === 'list') blocks.push((node.children ?? []).map((item) => `- ${text(item)}`).join('\n'));
    else if (node.type === 'image' && node.src) blocks.push(`![${node.altText ?? ''}](${node.src})`);
    else blocks.push(text(node));
  }
  return blocks.filter((block) => block.trim()).join('\n\n');
}

interface LexicalNode {
  type?: string;
  text?: string;
  tag?: string;
  markdown?: string;
  src?: string;
  altText?: string;
  children?: LexicalNode[];
}

/** The Markdown of a Mobiledoc document: its markdown cards and its text sections. */
function mobiledocToMarkdown(source: string): string {
  const doc = JSON.parse(source) as {
    cards?: [string, { markdown?: string; html?: string }][];
    sections?: unknown[][];
    markups?: unknown[];
  };
  const blocks: string[] = [];
  for (const section of doc.sections ?? []) {
    if (section[0] === 10) {
      const [name, payload] = doc.cards?.[section[1] as number] ?? [];
      if (name === 'markdown' && payload?.markdown) blocks.push(payload.markdown);
      else if (name === 'html' && payload?.html) blocks.push(htmlToMarkdown(payload.html));
    } else if (section[0] === 1) {
      const markers = (section[2] as unknown[][]) ?? [];
      blocks.push(markers.map((marker) => String(marker[3] ?? '')).join(''));
    }
  }
  return blocks.filter((block) => block.trim()).join('\n\n');
}

/** The post's body as Markdown: from `html` when the export has it, else from Lexical or Mobiledoc. */
function bodyOf(post: GhostPost): string {
  if (post.html) return htmlToMarkdown(post.html);
  try {
    if (post.lexical) return lexicalToMarkdown(post.lexical);
    if (post.mobiledoc) return mobiledocToMarkdown(post.mobiledoc);
  } catch {
    // A document that is not JSON: the plain text below.
  }
  return post.plaintext ?? '';
}

/** The report's row for an element over ITEM_TEXT_MAX, named by the fields of it read before and after the cap. */
function oversized(kind: 'user' | 'tag' | 'post', labels: Readonly<Record<string, string>>): SourceRecord {
  return {
    type: 'skip',
    skip: {
      kind,
      sourceId: labels.id ?? '',
      title: (kind === 'post' ? labels.title : labels.name) || labels.slug || '(untitled)',
      reason: OVERSIZED_ITEM,
    },
  };
}

const NOT_GHOST = 'This is not a Ghost export: it has no db[0].data.posts (export it from Settings → Labs → Export in Ghost).';

/** One streamed pass over the export, asking for the arrays of `db[0].data` a plan names. */
function ghostPass(path: string, plan: Omit<JsonPlan, 'depth' | 'arrayAt'>): AsyncGenerator<JsonEvent> {
  // Small reads: parsing one is a short turn on the event loop the server's requests share.
  const file = createReadStream(path, { highWaterMark: 16 * 1024 });
  const arrayAt = (at: JsonPath) =>
    at.length === 4 && at[0] === 'db' && at[1] === 0 && at[2] === 'data' && typeof at[3] === 'string' ? at[3] : null;
  return jsonEvents(file, { depth: 4, arrayAt, ...plan });
}

/** A pass's events, with a malformed file said as a Ghost reader says it. */
async function* checked(events: AsyncGenerator<JsonEvent>): AsyncGenerator<JsonEvent> {
  try {
    yield* events;
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new BadSourceFile(`This is not a Ghost export: the file is not JSON (${error.message}).`);
    throw error;
  }
}

/**
 * The first pass: the whole file is JSON and has db[0].data.posts; counts them without keeping
 * one. Ghost ids (ObjectIds) are unique across sites: one origin for every Ghost export.
 */
export async function surveyGhost(path: string): Promise<SourceSurvey> {
  let posts: number | null = null;
  for await (const event of checked(ghostPass(path, { collect: () => false })))
    if (event.type === 'end' && event.array === 'posts') posts = event.count;
  if (posts === null) throw new BadSourceFile(NOT_GHOST);
  return { origin: 'ghost', posts };
}

/**
 * Users, then tags, then posts one at a time, in two passes over the file (its arrays may come in
 * any order; Ghost writes posts first): the first yields the users, keeps the tags (a site has tens
 * to hundreds) and the post → tags/author links as maps of ids; the second yields the posts.
 */
export async function* readGhost(path: string): AsyncGenerator<SourceRecord> {
  const tags: SourceTag[] = [];
  const internal = new Set<string>();
  // Per post, its tags and its first author by sort_order (a stable order: file order among equals).
  const tagsOf = new Map<string, { id: string; order: number }[]>();
  const authorOf = new Map<string, { id: string; order: number }>();
  const linkArrays = new Set(['users', 'tags', 'posts_tags', 'posts_authors']);
  for await (const event of checked(ghostPass(path, { collect: (array) => linkArrays.has(array) }))) {
    // A user or tag over the cap is reported; a link row that large names no post or tag it could be kept for.
    if (event.type === 'oversized' && (event.array === 'users' || event.array === 'tags'))
      yield oversized(event.array === 'users' ? 'user' : 'tag', event.labels);
    if (event.type !== 'item') continue;
    if (event.array === 'users') {
      const user = event.value as GhostUser;
      yield { type: 'user', user: { sourceId: user.id, fullName: user.name, email: user.email, bio: user.bio ?? null } };
    } else if (event.array === 'tags') {
      const tag = event.value as GhostTag;
      // Internal tags (#name) organise Ghost's own themes; they are not readers' tags.
      if (tag.visibility === 'internal' || tag.name.startsWith('#')) internal.add(ownCopy(tag.id));
      else
        tags.push({
          sourceId: ownCopy(tag.id),
          name: ownCopy(tag.name),
          slug: ownCopy(tag.slug),
          description: tag.description ? ownCopy(tag.description) : null,
        });
    } else if (event.array === 'posts_tags') {
      const link = event.value as GhostLink;
      if (!link.post_id || !link.tag_id) continue;
      const postId = ownCopy(link.post_id);
      const list = tagsOf.get(postId) ?? [];
      list.push({ id: ownCopy(link.tag_id), order: link.sort_order ?? 0 });
      tagsOf.set(postId, list);
    } else if (event.array === 'posts_authors') {
      const link = event.value as GhostLink;
      if (!link.post_id || !link.author_id) continue;
      const order = link.sort_order ?? 0;
      const first = authorOf.get(link.post_id);
      if (!first || order < first.order) authorOf.set(ownCopy(link.post_id), { id: ownCopy(link.author_id), order });
    }
  }
  for (const tag of tags) yield { type: 'tag', tag };
  tags.length = 0;

  for await (const event of checked(ghostPass(path, { collect: (array) => array === 'posts' }))) {
    if (event.type === 'oversized' && event.array === 'posts') yield oversized('post', event.labels);
    if (event.type !== 'item' || event.array !== 'posts') continue;
    const post = event.value as GhostPost;
    const status = STATUSES[post.status] ?? null;
    const publishedAt = date(post.published_at);
    const linked = (tagsOf.get(post.id) ?? []).filter((link) => !internal.has(link.id)).sort((a, b) => a.order - b.order);
    const record: SourcePost = {
      sourceId: post.id,
      title: post.title || '(untitled)',
      slug: post.slug || null,
      markdown: bodyOf(post),
      summary: post.custom_excerpt ?? null,
      status,
      sourceStatus: post.status,
      createdAt: date(post.created_at),
      updatedAt: date(post.updated_at),
      publishedAt: status === PostStatus.PUBLISHED ? publishedAt : null,
      scheduledAt: status === PostStatus.PENDING_REVIEW ? publishedAt : null,
      authorSourceId: authorOf.get(post.id)?.id ?? post.author_id ?? null,
      tagSourceIds: linked.map((link) => link.id),
      featuredImage: post.feature_image ?? null,
      oldPaths: [],
      isFeatured: post.featured === true || post.featured === 1,
      seo: { metaTitle: post.meta_title ?? null, metaDescription: post.meta_description ?? null, canonicalUrl: post.canonical_url ?? null },
      comments: [],
    };
    yield { type: 'post', post: record };
  }
}
