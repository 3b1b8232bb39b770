/**
 * What a post page puts in its <head>, from the public post answer's `seo`: the
 * title (metaTitle, else the post's title), the description (metaDescription, else the summary,
 * else the start of the text), the canonical URL (the override, else /blog/{slug}), robots
 * noindex, the social image (socialImage, else the thumbnail's social variant) and the JSON-LD
 * Article (headline, description, image, mainEntityOfPage = the canonical URL).
 */
import { socialImageOfThumbnail } from '../../../../isomorphic/thumbnail-srcset';
import type { Post } from '../../lib/api/schema';

type PublicPost = Omit<Post, 'authorEmail'>;

export interface PostHead {
  /** The whole <title> when the author set one; else undefined (the layout adds the site's name to the post title). */
  metaTitle: string | undefined;
  title: string;
  description: string;
  canonical: string;
  noindex: boolean;
  image: string | undefined;
  jsonLd: Record<string, unknown>;
}

/** At most this many characters of the text stand in for a missing summary. */
const DERIVED_DESCRIPTION_LENGTH = 160;

export function postHead(post: PublicPost, site: string): PostHead {
  const { seo } = post;
  const title = seo.metaTitle ?? post.title;
  const description =
    seo.metaDescription ??
    (post.summary?.trim() ||
      post.content
        .replace(/[#*_>`[\]()!-]/g, '')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, DERIVED_DESCRIPTION_LENGTH));
  const canonical = seo.canonicalUrl ?? new URL(`/blog/${post.slug}`, site).toString();
  const imagePath = seo.socialImage ?? (post.thumbnail ? socialImageOfThumbnail(post.thumbnail) : undefined);
  const image = imagePath ? new URL(imagePath, site).toString() : undefined;
  return {
    metaTitle: seo.metaTitle ?? undefined,
    title,
    description,
    canonical,
    noindex: seo.noindex,
    image,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: title,
      description,
      datePublished: post.publishedAt ?? post.createdAt,
      dateModified: post.updatedAt,
      author: { '@type': 'Person', name: post.author?.fullName ?? post.authorName },
      image: image ? [image] : undefined,
      mainEntityOfPage: canonical,
      publisher: { '@type': 'Organization', name: 'Inkwell' },
      keywords: post.tags.map((tag) => tag.name).join(', ') || undefined,
    },
  };
}
