import type { EntityManager } from 'typeorm';

/**
 * `%fragment%` for ILIKE with the fragment's LIKE wildcards escaped (backslash is ILIKE's default
 * escape), so a search for "50%" or "a_b" matches those characters, not any text.
 */
export function containsPattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * How many rows `from` (a `FROM … WHERE …` clause with its `$n` parameters) holds: the one way the
 * repositories count a list's total.
 */
export async function countRows(db: Pick<EntityManager, 'query'>, from: string, params: unknown[] = []): Promise<number> {
  const [row] = (await db.query(`SELECT count(*)::int AS total ${from}`, params)) as { total: number }[];
  return row.total;
}
