import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PostEmailFacts, RenderedEmail, renderPostEmail } from './newsletter-email/post-email';

/** The site's name in the e-mails (the brand the pages show). */
export const NEWSLETTER_SITE_NAME = 'Inkwell';

/** A post as the sender needs it: the e-mail's facts, its author and tags (whom it goes to, and why). */
export interface NewsletterPost extends PostEmailFacts {
  id: number;
  status: string;
  version: number;
  authorId: number;
  tags: { id: number; name: string }[];
}

/** Posts rendered at once per instance: a send renders its post once, not once per e-mail. */
const CACHE_SIZE = 8;

/**
 * Reads a post for its newsletter e-mail and renders it once per version (react-email, then
 * `personalise` per subscriber): the renders of the last few posts are kept per instance.
 */
@Injectable()
export class NewsletterPostEmail {
  private readonly rendered = new Map<string, Promise<RenderedEmail>>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async post(postId: number, manager: EntityManager = this.dataSource.manager): Promise<NewsletterPost | undefined> {
    const [row]: (Omit<NewsletterPost, 'tags'> & { tags: { id: number; name: string }[] | null })[] = await manager.query(
      `SELECT p.id, p.title, p.slug, p.content_html AS "contentHtml", p.summary AS excerpt, p.reading_time AS "readingTime",
              p.published_at AS "publishedAt", p.status, p.version, p.author_id AS "authorId",
              u.full_name AS "authorName", u.slug AS "authorSlug",
              (SELECT json_agg(json_build_object('id', t.id, 'name', t.name) ORDER BY t.name)
                 FROM post_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.post_id = p.id) AS tags
         FROM posts p JOIN users u ON u.id = p.author_id
        WHERE p.id = $1`,
      [postId],
    );
    return row ? { ...row, tags: row.tags ?? [] } : undefined;
  }

  /** The post's e-mail with the recipient's slots open (or the test footer). */
  render(post: NewsletterPost, footer: 'recipient' | 'test' = 'recipient'): Promise<RenderedEmail> {
    const key = `${post.id}:${post.version}:${footer}`;
    let email = this.rendered.get(key);
    if (!email) {
      email = renderPostEmail(post, this.config.publicUrl, footer, NEWSLETTER_SITE_NAME);
      email.catch(() => this.rendered.delete(key));
      this.rendered.set(key, email);
      while (this.rendered.size > CACHE_SIZE) this.rendered.delete(this.rendered.keys().next().value as string);
    }
    return email;
  }

  /** Why a subscriber gets the post, as the footer says it: the follow its unsubscribe link removes. */
  reason(post: NewsletterPost, kind: string, targetId: number): string {
    if (kind === 'author') return post.authorName;
    if (kind === 'tag') return `the tag ${post.tags.find((tag) => tag.id === targetId)?.name ?? ''}`.trim();
    return NEWSLETTER_SITE_NAME;
  }
}
