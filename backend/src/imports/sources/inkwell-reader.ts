import yauzl from 'yauzl';
import { RoleName } from '../../auth/roles';
import { POST_STATUSES, PostStatus } from '../../posts/entities/post.entity';
import { SITE_EXPORT_FORMAT, SITE_EXPORT_VERSION, SiteExportDocument } from '../site-export-format';
import { BadSourceFile, SourceRecord, SourceSurvey } from './source-records';

const ROLES = new Set<string>(Object.values(RoleName));
const date = (value: string | null | undefined): Date | null => (value ? new Date(value) : null);

/** Reads `site.json` out of an Inkwell export zip and checks its format and version. */
async function load(path: string): Promise<SiteExportDocument> {
  const text = await new Promise<string>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(new BadSourceFile(`This is not an Inkwell export: the file is not a zip archive (${error.message}).`));
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== 'site.json') return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(new BadSourceFile(`The export's site.json cannot be read (${streamError.message}).`));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks).toString('utf8'));
          });
          stream.on('error', (readError: Error) => reject(new BadSourceFile(`The export's site.json cannot be read (${readError.message}).`)));
        });
      });
      zip.on('end', () => {
        if (!found) reject(new BadSourceFile('This is not an Inkwell export: the zip has no site.json.'));
      });
      zip.on('error', (zipError: Error) => reject(new BadSourceFile(`The archive cannot be read (${zipError.message}).`)));
      zip.readEntry();
    });
  });
  let document: SiteExportDocument;
  try {
    document = JSON.parse(text) as SiteExportDocument;
  } catch (error) {
    throw new BadSourceFile(`The export's site.json is not JSON (${(error as Error).message}).`);
  }
  if (document?.format !== SITE_EXPORT_FORMAT) throw new BadSourceFile("This is not an Inkwell export: site.json has no 'format: inkwell-site-export'.");
  if (document.version !== SITE_EXPORT_VERSION) throw new BadSourceFile(`This export is format version ${document.version}; this Inkwell reads version ${SITE_EXPORT_VERSION}.`);
  if (!Array.isArray(document.users) || !Array.isArray(document.tags) || !Array.isArray(document.posts)) throw new BadSourceFile("The export's site.json lacks its users, tags or posts.");
  return document;
}

export async function surveyInkwell(path: string): Promise<SourceSurvey> {
  const document = await load(path);
  return { origin: `inkwell:${String(document.site).replace(/\/+$/, '').toLowerCase()}`, posts: document.posts.length };
}

export async function* readInkwell(path: string): AsyncGenerator<SourceRecord> {
  const document = await load(path);
  const emails = new Map(document.users.map((user) => [user.id, { email: user.email, name: user.fullName }]));
  for (const user of document.users) {
    const roles = user.roles.filter((role): role is RoleName => ROLES.has(role));
    yield { type: 'user', user: { sourceId: String(user.id), fullName: user.fullName, email: user.email, bio: user.bio, roles: roles.length ? roles : [RoleName.USER] } };
  }
  for (const tag of document.tags) {
    yield { type: 'tag', tag: { sourceId: String(tag.id), name: tag.name, slug: tag.slug, description: tag.description, active: tag.active, color: tag.color, icon: tag.icon } };
  }
  for (const post of document.posts) {
    const status = (POST_STATUSES as string[]).includes(post.status) ? (post.status as PostStatus) : null;
    yield {
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
          authorName: (comment.authorId !== null && emails.get(comment.authorId)?.name) || 'Former reader',
          authorEmail: comment.authorId !== null ? emails.get(comment.authorId)?.email ?? null : null,
          createdAt: date(comment.createdAt),
          approved: comment.visibility === 'VISIBLE',
        })),
      },
    };
  }
}
