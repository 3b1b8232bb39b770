import type { TestApp } from './app';
import { api } from './envelope';

export interface SitemapEntry {
  slug: string;
  updatedAt: string;
}

/**
 * Every address of a kind the sitemap lists, read as sitemap.xml's pages read them: the index
 * (GET /blog/posts/public/sitemap), then each of that kind's numbered files.
 */
export async function sitemapEntries(t: TestApp, kind: 'posts' | 'tags' | 'authors'): Promise<SitemapEntry[]> {
  const index = (await t.http.get(api('/blog/posts/public/sitemap')).expect(200)).body.data.files as { kind: string; number: number }[];
  const entries: SitemapEntry[] = [];
  for (const file of index.filter((candidate) => candidate.kind === kind)) {
    entries.push(
      ...((await t.http.get(api(`/blog/posts/public/sitemap/${kind}/${file.number}`)).expect(200)).body.data.entries as SitemapEntry[]),
    );
  }
  return entries;
}

/** The slugs of sitemapEntries. */
export const sitemapSlugs = async (t: TestApp, kind: 'posts' | 'tags' | 'authors'): Promise<string[]> =>
  (await sitemapEntries(t, kind)).map((entry) => entry.slug);
