/**
 * `%fragment%` for ILIKE with the fragment's LIKE wildcards escaped (backslash is ILIKE's default
 * escape), so a search for "50%" or "a_b" matches those characters, not any text.
 */
export function containsPattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
