import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ZipArchive } from 'archiver';
import { createReadStream, existsSync } from 'node:fs';
import { Readable, type Writable } from 'node:stream';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { ImageStorageService } from '../images/image-storage.service';
import { postToMarkdown } from '../posts/post-markdown';
import { ExportedComment, ExportedPost, ExportedTag, ExportedUser, SITE_EXPORT_FORMAT, SITE_EXPORT_VERSION } from './site-export-format';

/** Posts read per query while the export streams (keyset by id). */
const BATCH = 200;

interface PostRow {
  id: number;
  title: string;
  slug: string;
  summary: string | null;
  content: string;
  status: string;
  author_id: number;
  author_name: string;
  thumbnail: string | null;
  is_featured: boolean;
  meta_title: string | null;
  meta_description: string | null;
  canonical_url: string | null;
  noindex: boolean;
  social_image: string | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  scheduled_at: Date | null;
  tag_ids: number[];
  tag_slugs: string[];
  earlier_slugs: string[];
  old_paths: string[];
}

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/**
 * The whole site as one zip (format in docs/site-export.md): `site.json` (users, tags,
 * posts with their comments; versioned), each post as `posts/<slug>.md` (post-markdown.ts, the
 * same writer as a user's data export) and its thumbnail under `images/thumbnails/`. Streamed: the
 * posts are read in batches while the zip is written, so a large site is never held whole.
 * No password hashes, sessions or tokens leave the site.
 */
@Injectable()
export class SiteExporter {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly images: ImageStorageService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `inkwell-export-2026-11-28.zip`. */
  fileName(now = new Date()): string {
    return `inkwell-export-${now.toISOString().slice(0, 10)}.zip`;
  }

  /** Writes the export into `out` and resolves once the zip is complete. */
  async write(out: Writable): Promise<void> {
    const zip = new ZipArchive({ zlib: { level: 6 } });
    const done = new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      out.on('error', reject);
      out.on('finish', () => resolve());
      out.on('close', () => resolve());
    });
    zip.pipe(out);
    zip.append(Readable.from(this.siteJson()), { name: 'site.json' });
    // The Markdown files and images follow site.json, a batch at a time as the zip takes them.
    await new Promise<void>((resolve) => zip.once('entry', () => resolve()));
    for await (const rows of this.postBatches()) {
      let pending = 0;
      const drained = new Promise<void>((resolve) => {
        const onEntry = () => {
          pending -= 1;
          if (pending === 0) {
            zip.off('entry', onEntry);
            resolve();
          }
        };
        zip.on('entry', onEntry);
      });
      for (const row of rows) {
        pending += 1;
        zip.append(this.markdownOf(row), { name: `posts/${row.slug}.md`, date: row.updated_at });
        const image = this.thumbnailFile(row.thumbnail);
        if (image) {
          pending += 1;
          zip.append(createReadStream(image.path), { name: `images/thumbnails/${image.name}` });
        }
      }
      if (pending) await drained;
    }
    await zip.finalize();
    await done;
  }

  private thumbnailFile(url: string | null): { name: string; path: string } | undefined {
    const name = this.images.nameOf('thumbnails', url);
    const path = name ? this.images.pathOf('thumbnails', name) : undefined;
    return name && path && existsSync(path) ? { name, path } : undefined;
  }

  private markdownOf(row: PostRow): string {
    const image = this.thumbnailFile(row.thumbnail);
    return postToMarkdown(
      {
        title: row.title,
        slug: row.slug,
        status: row.status,
        summary: row.summary,
        author: row.author_name,
        tags: row.tag_slugs,
        featured: row.is_featured,
        thumbnail: image ? `../images/thumbnails/${image.name}` : row.thumbnail,
        createdAt: iso(row.created_at),
        updatedAt: iso(row.updated_at),
        publishedAt: iso(row.published_at),
        metaTitle: row.meta_title,
        metaDescription: row.meta_description,
        canonicalUrl: row.canonical_url,
      },
      row.content,
    );
  }

  /** site.json as text pieces: the header, users and tags, then the posts batch by batch. */
  private async *siteJson(): AsyncGenerator<string> {
    yield `{"format":${JSON.stringify(SITE_EXPORT_FORMAT)},"version":${SITE_EXPORT_VERSION},"exportedAt":${JSON.stringify(new Date().toISOString())},"site":${JSON.stringify(this.config.publicUrl)},\n"users":[`;
    const users = (await this.dataSource.query(
      `SELECT u.id, u.full_name, u.email, u.bio, u.created_at, array(SELECT r.name FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id ORDER BY r.name) AS roles
         FROM users u ORDER BY u.id`,
    )) as { id: number; full_name: string; email: string; bio: string | null; created_at: Date; roles: string[] }[];
    yield users
      .map((user) =>
        JSON.stringify({
          id: user.id,
          fullName: user.full_name,
          email: user.email,
          bio: user.bio,
          roles: user.roles,
          createdAt: user.created_at.toISOString(),
        } satisfies ExportedUser),
      )
      .join(',\n');
    yield '],\n"tags":[';
    const tags = (await this.dataSource.query(`SELECT id, name, slug, description, color, icon, is_active FROM tags ORDER BY id`)) as {
      id: number;
      name: string;
      slug: string;
      description: string | null;
      color: string | null;
      icon: string | null;
      is_active: boolean;
    }[];
    yield tags
      .map((tag) =>
        JSON.stringify({
          id: tag.id,
          name: tag.name,
          slug: tag.slug,
          description: tag.description,
          color: tag.color,
          icon: tag.icon,
          active: tag.is_active,
        } satisfies ExportedTag),
      )
      .join(',\n');
    yield '],\n"posts":[';
    let first = true;
    for await (const rows of this.postBatches()) {
      const comments = await this.commentsOf(rows.map((row) => row.id));
      for (const row of rows) {
        const image = this.thumbnailFile(row.thumbnail);
        const post: ExportedPost = {
          id: row.id,
          title: row.title,
          slug: row.slug,
          summary: row.summary,
          content: row.content,
          status: row.status,
          authorId: row.author_id,
          tagIds: row.tag_ids,
          thumbnail: image ? `images/thumbnails/${image.name}` : row.thumbnail,
          isFeatured: row.is_featured,
          seo: {
            metaTitle: row.meta_title,
            metaDescription: row.meta_description,
            canonicalUrl: row.canonical_url,
            noindex: row.noindex,
            socialImage: row.social_image,
          },
          createdAt: row.created_at.toISOString(),
          updatedAt: row.updated_at.toISOString(),
          publishedAt: iso(row.published_at),
          scheduledAt: iso(row.scheduled_at),
          earlierSlugs: row.earlier_slugs,
          oldPaths: row.old_paths,
          markdownFile: `posts/${row.slug}.md`,
          comments: comments.get(row.id) ?? [],
        };
        yield `${first ? '' : ',\n'}${JSON.stringify(post)}`;
        first = false;
      }
    }
    yield ']}\n';
  }

  private async *postBatches(): AsyncGenerator<PostRow[]> {
    let after = 0;
    for (;;) {
      const rows = (await this.dataSource.query(
        `SELECT p.id, p.title, p.slug, p.summary, p.content, p.status, p.author_id, u.full_name AS author_name, p.thumbnail, p.is_featured, p.meta_title, p.meta_description,
                p.canonical_url, p.noindex, p.social_image, p.created_at, p.updated_at, p.published_at, p.scheduled_at,
                array(SELECT pt.tag_id FROM post_tags pt WHERE pt.post_id = p.id ORDER BY pt.tag_id) AS tag_ids,
                array(SELECT t.slug FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id ORDER BY pt.tag_id) AS tag_slugs,
                array(SELECT h.slug FROM post_slug_history h WHERE h.post_id = p.id ORDER BY h.slug) AS earlier_slugs,
                array(SELECT r.path FROM post_path_redirects r WHERE r.post_id = p.id ORDER BY r.path) AS old_paths
           FROM posts p JOIN users u ON u.id = p.author_id WHERE p.id > $1 ORDER BY p.id LIMIT $2`,
        [after, BATCH],
      )) as PostRow[];
      if (!rows.length) return;
      yield rows;
      after = rows[rows.length - 1].id;
    }
  }

  /** The posts' comments, oldest first; deleted ones (placeholders) are left out, hidden ones go as HELD. */
  private async commentsOf(postIds: number[]): Promise<Map<number, ExportedComment[]>> {
    const rows = (await this.dataSource.query(
      `SELECT id, post_id, parent_id, user_id, content, created_at, moderation FROM comments WHERE post_id = ANY($1) AND deleted_at IS NULL ORDER BY created_at, id`,
      [postIds],
    )) as {
      id: number;
      post_id: number;
      parent_id: number | null;
      user_id: number | null;
      content: string;
      created_at: Date;
      moderation: string;
    }[];
    const byPost = new Map<number, ExportedComment[]>();
    for (const row of rows) {
      const list = byPost.get(row.post_id) ?? [];
      list.push({
        id: row.id,
        parentId: row.parent_id,
        authorId: row.user_id,
        content: row.content,
        createdAt: row.created_at.toISOString(),
        visibility: row.moderation === 'VISIBLE' ? 'VISIBLE' : 'HELD',
      });
      byPost.set(row.post_id, list);
    }
    return byPost;
  }
}
