/**
 * "Counted" in SQL: a comment counts (in its post's comment_count, in every total and list of
 * other people's comments) when it is not deleted and VISIBLE. The one SQL copy of the rule
 * (`isCounted` in comment-moves.ts is the same rule for one row); every query that counts
 * comments writes `${countedComment('c')}` instead of spelling it out.
 *
 * `alias` is the comments table's alias in the query ('' when it has none).
 */
export function countedComment(alias = ''): string {
  const column = (name: string) => (alias ? `${alias}.${name}` : name);
  return `(${column('deleted_at')} IS NULL AND ${column('moderation')} = 'VISIBLE')`;
}
