import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { RoleName } from '../../users/roles';
import { POST_STATUSES, PostStatus } from '../../posts/entities/post.entity';
import { ExportedPost, ExportedTag, ExportedUser, SITE_EXPORT_FORMAT, SITE_EXPORT_VERSION } from '../site-export-format';
import { JsonEvent, JsonPlan, JsonSyntaxError, jsonEvents } from './json-stream';
import { BadSourceFile, OVERSIZED_ITEM, ownCopy, SourceRecord, SourceSurvey } from './source-records';

const ROLES = new Set<string>(Object.values(RoleName));
const date = (value: string | null | undefined): Date | null => (value ? new Date(value) : null);

/** Opens `site.json` inside an Inkwell export zip as a stream (the zip's file closes when the stream does). */
function openSiteJson(path: string): Promise<Readable> {
  return new Promise<Readable>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(new BadSourceFile(`This is not an Inkwell export: the file is not a zip archive (${error.message}).`));
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== 'site.json') return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (streamError, stream) => {
          // Closing now lets the file go once this stream ends or is destroyed.
          zip.close();
          if (streamError) return reject(new BadSourceFile(`The export's site.json cannot be read (${streamError.message}).`));
          resolve(stream);
        });
      });
      zip.on('end', () => {
        if (!found) reject(new BadSourceFile('This is not an Inkwell export: the zip has no site.json.'));
      });
      zip.on('error', (zipError: Error) => reject(new BadSourceFile(`The archive cannot be read (${zipError.message}).`)));
      zip.readEntry();
    });
  });
}

const TOP_LEVEL_ARRAYS = new Set(['users', 'tags', 'posts']);
const TOP_LEVEL_SCALARS = new Set(['format', 'version', 'site']);

/** One streamed pass over site.json, its malformed JSON or unreadable entry said as before. */
async function* sitePass(path: string, collect: JsonPlan['collect']): AsyncGenerator<JsonEvent> {
  const stream = await openSiteJson(path);
  const plan: JsonPlan = {
    depth: 1,
    arrayAt: (at) => (at.length === 1 && TOP_LEVEL_ARRAYS.has(at[0] as string) ? (at[0] as string) : null),
    scalarAt: (at) => (at.length === 1 && TOP_LEVEL_SCALARS.has(at[0] as string) ? (at[0] as string) : null),
    collect,
  };
  try {
    yield* jsonEvents(stream, plan);
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new BadSourceFile(`The export's site.json is not JSON (${error.message}).`);
    if (error instanceof BadSourceFile) throw error;
    throw new BadSourceFile(`The export's site.json cannot be read (${(error as Error).message}).`);
  }
}

/**
 * The first pass: site.json is JSON throughout, of this format and version, with its users, tags
 * and posts (counted, none kept); the checks and their order are those of the whole-file reader.
 */
export async function surveyInkwell(path: string): Promise<SourceSurvey> {
  const header: Record<string, unknown> = {};
  const counts = new Map<string, number>();
  for await (const event of sitePass(path, () => false)) {
    if (event.type === 'scalar') header[event.key] = event.value;
    else if (event.type === 'end') counts.set(event.array, event.count);
  }
  if (header.format !== SITE_EXPORT_FORMAT)
    throw new BadSourceFile("This is not an Inkwell export: site.json has no 'format: inkwell-site-export'.");
  if (header.version !== SITE_EXPORT_VERSION)
    throw new BadSourceFile(`This export is format version ${String(header.version)}; this Inkwell reads version ${SITE_EXPORT_VERSION}.`);
  if (![...TOP_LEVEL_ARRAYS].every((array) => counts.has(array)))
    throw new BadSourceFile("The export's site.json lacks its users, tags or posts.");
  return { origin: `inkwell:${String(header.site).replace(/\/+$/, '').toLowerCase()}`, posts: counts.get('posts')! };
}

function userRecord(user: ExportedUser): SourceRecord {
  const roles = user.roles.filter((role): role is RoleName => ROLES.has(role));
  return {
    type: 'user',
    user: {
      sourceId: String(user.id),
      fullName: user.fullName,
      email: user.email,
      bio: user.bio,
      roles: roles.length ? roles : [RoleName.USER],
    },
  };
}

function tagRecord(tag: ExportedTag): SourceRecord {
  return {
    type: 'tag',
    tag: {
      sourceId: String(tag.id),
      name: tag.name,
      slug: tag.slug,
      description: tag.description,
      active: tag.active,
      color: tag.color,
      icon: tag.icon,
    },
  };
}

function postRecord(post: ExportedPost, people: Map<number, { email: string; name: string }>): SourceRecord {
  const status = (POST_STATUSES as string[]).includes(post.status) ? (post.status as PostStatus) : null;
  return {
    type: 'post',
    post: {
      sourceId: String(post.id),
      title: post.title,
      slug: post.slug,
      markdown: post.content,
      summary: post.summary,
      status,
      sourceStatus: post.status,
      createdAt: date(post.createdAt),
      updatedAt: date(post.updatedAt),
      publishedAt: date(post.publishedAt),
      scheduledAt: date(post.scheduledAt),
      authorSourceId: String(post.authorId),
      tagSourceIds: post.tagIds.map(String),
      featuredImage: post.thumbnail,
      oldPaths: post.oldPaths ?? [],
      earlierSlugs: post.earlierSlugs ?? [],
      isFeatured: post.isFeatured,
      seo: post.seo,
      comments: post.comments.map((comment) => ({
        sourceId: String(comment.id),
        parentSourceId: comment.parentId === null ? null : String(comment.parentId),
        content: comment.content,
        authorName: (comment.authorId !== null && people.get(comment.authorId)?.name) || 'Former reader',
        authorEmail: comment.authorId !== null ? (people.get(comment.authorId)?.email ?? null) : null,
        createdAt: date(comment.createdAt),
        approved: comment.visibility === 'VISIBLE',
      })),
    },
  };
}

/** The report's row for a user, tag or post over ITEM_TEXT_MAX, named by the fields of it read before and after the cap. */
function oversized(array: string, labels: Readonly<Record<string, string>>): SourceRecord {
  const kind = array === 'users' ? 'user' : array === 'tags' ? 'tag' : 'post';
  const title = kind === 'post' ? labels.title : kind === 'user' ? labels.fullName : labels.name;
  return { type: 'skip', skip: { kind, sourceId: labels.id ?? '', title: title || labels.slug || '(untitled)', reason: OVERSIZED_ITEM } };
}

/**
 * Users, then tags, then posts one at a time. Inkwell writes site.json in that order, so one pass
 * reads it; if the arrays come otherwise, tags that come before the users wait (a site has few),
 * and posts that come before either are read in a second pass. Kept for the whole run: each user's
 * e-mail and name by id, for the comments.
 */
export async function* readInkwell(path: string): AsyncGenerator<SourceRecord> {
  const people = new Map<number, { email: string; name: string }>();
  const waitingTags: ExportedTag[] = [];
  let usersDone = false;
  let postsInFirstPass = false;
  const collect: JsonPlan['collect'] = (array, ended) => {
    if (array !== 'posts') return true;
    postsInFirstPass = ended.has('users') && ended.has('tags');
    return postsInFirstPass;
  };
  const flushTags = function* (): Generator<SourceRecord> {
    for (const tag of waitingTags.splice(0)) yield tagRecord(tag);
  };
  for await (const event of sitePass(path, collect)) {
    if (event.type === 'end' && event.array === 'users') {
      usersDone = true;
      yield* flushTags();
    }
    if (event.type === 'oversized') yield oversized(event.array, event.labels);
    if (event.type !== 'item') continue;
    if (event.array === 'users') {
      const user = event.value as ExportedUser;
      people.set(user.id, { email: ownCopy(user.email), name: ownCopy(user.fullName) });
      yield userRecord(user);
    } else if (event.array === 'tags') {
      const tag = event.value as ExportedTag;
      if (usersDone) yield tagRecord(tag);
      else
        waitingTags.push({
          ...tag,
          name: ownCopy(tag.name),
          slug: ownCopy(tag.slug),
          description: tag.description && ownCopy(tag.description),
          color: tag.color && ownCopy(tag.color),
          icon: tag.icon && ownCopy(tag.icon),
        });
    } else if (event.array === 'posts') {
      yield postRecord(event.value as ExportedPost, people);
    }
  }
  yield* flushTags();
  if (postsInFirstPass) return;
  for await (const event of sitePass(path, (array) => array === 'posts')) {
    if (event.type === 'item') yield postRecord(event.value as ExportedPost, people);
    else if (event.type === 'oversized') yield oversized(event.array, event.labels);
  }
}
