/**
 * An author's fediverse user name (docs/federation.md#being-followed): the slug, except for an
 * author whose slug is the publication's handle (FEDERATION_SITE_HANDLE, `blog` by default),
 * who is `{slug}_{id}` — slugs never hold '_', so no other author can have that name, and
 * WebFinger's `acct:blog@host` stays the publication's.
 */
export function fediverseUsername(author: { id: number; slug: string }, siteHandle: string): string {
  return author.slug === siteHandle ? `${author.slug}_${author.id}` : author.slug;
}

/** The author id a `{siteHandle}_{id}` user name stands for, or null for any other name. */
export function shadowedAuthorId(username: string, siteHandle: string): number | null {
  const match = /^(.+)_([1-9]\d{0,8})$/.exec(username);
  return match && match[1] === siteHandle ? Number(match[2]) : null;
}
