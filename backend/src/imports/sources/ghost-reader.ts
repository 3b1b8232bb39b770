import { readFile } from 'node:fs/promises';
import { PostStatus } from '../../posts/entities/post.entity';
import { htmlToMarkdown } from '../html-to-markdown';
import { BadSourceFile, SourcePost, SourceRecord, SourceSurvey } from './source-records';

/** The parts of a Ghost export the importer reads (Ghost 4–6 `db[0].data`). */
interface GhostData {
  posts?: GhostPost[];
  tags?: { id: string; name: string; slug: string; description?: string | null; visibility?: string }[];
  users?: { id: string; name: string; slug?: string; email: string; bio?: string | null }[];
  posts_tags?: { post_id: string; tag_id: string; sort_order?: number }[];
  posts_authors?: { post_id: string; author_id: string; sort_order?: number }[];
}

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
const STATUSES: Record<string, PostStatus> = { published: PostStatus.PUBLISHED, draft: PostStatus.DRAFT, scheduled: PostStatus.PENDING_REVIEW };

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
  const doc = JSON.parse(source) as { cards?: [string, { markdown?: string; html?: string }][]; sections?: unknown[][]; markups?: unknown[] };
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

/** The post's body as Markdown: from `html` when the export has it (issue 28), else from Lexical or Mobiledoc. */
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

/** Reads and checks a Ghost export (Ghost writes it as one JSON document). */
async function load(path: string): Promise<GhostData> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new BadSourceFile(`This is not a Ghost export: the file is not JSON (${(error as Error).message}).`);
  }
  const data = (parsed as { db?: { data?: GhostData }[] } | null)?.db?.[0]?.data;
  if (!data || !Array.isArray(data.posts)) throw new BadSourceFile('This is not a Ghost export: it has no db[0].data.posts (export it from Settings → Labs → Export in Ghost).');
  return data;
}

/** Ghost ids (ObjectIds) are unique across sites: one origin for every Ghost export. */
export async function surveyGhost(path: string): Promise<SourceSurvey> {
  const data = await load(path);
  return { origin: 'ghost', posts: data.posts!.length };
}

export async function* readGhost(path: string): AsyncGenerator<SourceRecord> {
  const data = await load(path);
  for (const user of data.users ?? []) yield { type: 'user', user: { sourceId: user.id, fullName: user.name, email: user.email, bio: user.bio ?? null } };
  const internal = new Set<string>();
  for (const tag of data.tags ?? []) {
    // Internal tags (#name) organise Ghost's own themes; they are not readers' tags.
    if (tag.visibility === 'internal' || tag.name.startsWith('#')) {
      internal.add(tag.id);
      continue;
    }
    yield { type: 'tag', tag: { sourceId: tag.id, name: tag.name, slug: tag.slug, description: tag.description ?? null } };
  }
  const byOrder = (a: { sort_order?: number }, b: { sort_order?: number }) => (a.sort_order ?? 0) - (b.sort_order ?? 0);
  const tagsOf = new Map<string, string[]>();
  for (const link of [...(data.posts_tags ?? [])].sort(byOrder)) if (!internal.has(link.tag_id)) tagsOf.set(link.post_id, [...(tagsOf.get(link.post_id) ?? []), link.tag_id]);
  const authorOf = new Map<string, string>();
  for (const link of [...(data.posts_authors ?? [])].sort(byOrder)) if (!authorOf.has(link.post_id)) authorOf.set(link.post_id, link.author_id);
  for (const post of data.posts!) {
    const status = STATUSES[post.status] ?? null;
    const publishedAt = date(post.published_at);
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
      authorSourceId: authorOf.get(post.id) ?? post.author_id ?? null,
      tagSourceIds: tagsOf.get(post.id) ?? [],
      featuredImage: post.feature_image ?? null,
      oldPaths: [],
      isFeatured: post.featured === true || post.featured === 1,
      seo: { metaTitle: post.meta_title ?? null, metaDescription: post.meta_description ?? null, canonicalUrl: post.canonical_url ?? null },
      comments: [],
    };
    yield { type: 'post', post: record };
  }
}
