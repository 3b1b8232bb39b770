/**
 * The sitemap's files (sitemaps.org), shared by the pages that write them
 * (frontend/src/pages/sitemap.xml.ts and sitemap-[file].xml.ts), the API that reads their rows
 * (posts: the sitemap queries) and the page cache (page-cache-policy.ts). `/sitemap.xml` is an
 * index of files of at most SITEMAP_FILE_SIZE addresses each: `/sitemap-pages.xml` (the home page,
 * /blog, /authors), then per kind numbered files, `/sitemap-posts-1.xml`, `/sitemap-tags-1.xml`,
 * `/sitemap-authors-1.xml`… File n of a kind holds the rows whose id is in
 * ((n - 1) · SITEMAP_FILE_SIZE, n · SITEMAP_FILE_SIZE]: a range of the primary key, read with it,
 * so a file costs the same at any size and a row stays in its file for good (a new post goes into
 * the last one). A range with no row has no file. No imports: the frontend bundles it.
 */

/** The protocol allows 50,000; smaller files stay quick to build, compress and fetch. */
export const SITEMAP_FILE_SIZE = 10_000;

/** What the numbered files list: published posts, active tags with published posts, author pages. */
export const SITEMAP_ENTRY_KINDS = ['posts', 'tags', 'authors'] as const;
export type SitemapEntryKind = (typeof SITEMAP_ENTRY_KINDS)[number];
export type SitemapKind = 'pages' | SitemapEntryKind;

/** One file of the index: `pages` (number 1) or a kind's numbered file. */
export interface SitemapFile {
  kind: SitemapKind;
  number: number;
}

export const SITEMAP_INDEX_PATH = '/sitemap.xml';

/** The address of a file of the index. */
export function sitemapFilePath(file: SitemapFile): string {
  return file.kind === 'pages' ? '/sitemap-pages.xml' : `/sitemap-${file.kind}-${file.number}.xml`;
}

const FILE_NAME = /^(?:pages|(posts|tags|authors)-([1-9][0-9]{0,8}))$/;

/** The file a name (`pages`, `posts-3`: the address without `/sitemap-` and `.xml`) stands for; undefined for any other. */
export function parseSitemapFileName(name: string | undefined): SitemapFile | undefined {
  const match = FILE_NAME.exec(name ?? '');
  if (!match) return undefined;
  return match[1] ? { kind: match[1] as SitemapEntryKind, number: Number(match[2]) } : { kind: 'pages', number: 1 };
}

/** Whether a path is the index or one of its possible files (the page cache keeps them as one group). */
export function isSitemapPath(path: string): boolean {
  if (path === SITEMAP_INDEX_PATH) return true;
  const name = /^\/sitemap-(.+)\.xml$/.exec(path)?.[1];
  return parseSitemapFileName(name) !== undefined;
}

/** The first and last id of a kind's file `number`. */
export function sitemapIdRange(number: number): [number, number] {
  return [(number - 1) * SITEMAP_FILE_SIZE + 1, number * SITEMAP_FILE_SIZE];
}
