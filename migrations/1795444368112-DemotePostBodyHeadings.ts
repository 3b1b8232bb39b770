import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Post bodies' headings go one level down (h1 → h2 … h5 → h6, h6 stays) so the post's title is
 * the page's only h1: backend/src/posts/markdown.ts now renders them so on save, and this brings
 * the HTML stored before that change in line. Data only, no schema change.
 *
 * The HTML is rewritten in SQL rather than re-rendered from `content`: a migration must not
 * depend on the renderer of the day, and only the heading tags change (ids, text, everything
 * else stay byte for byte). The stored HTML comes out of the sanitizer, which escapes `<` in
 * text and attribute values, so `<hN` and `</hN` only ever start heading tags. Levels move from
 * the bottom up (h5 → h6 first), so no heading moves twice. `updated_at` is left alone: the
 * author changed nothing.
 *
 * Down moves h2 → h1 … h6 → h5 (top down). It restores every heading but one case: a heading that
 * was already h6 before up (`######` in the source) comes back as h5, since up made it
 * indistinguishable from a demoted h5 (HTML has no h7). Editing such a post re-renders it anyway.
 */
export class DemotePostBodyHeadings1795444368112 implements MigrationInterface {
  name = 'DemotePostBodyHeadings1795444368112';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(shiftHeadingsSql([5, 4, 3, 2, 1], +1));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(shiftHeadingsSql([2, 3, 4, 5, 6], -1));
  }
}

/**
 * One UPDATE of posts.content_html whose heading tags of the given levels move by `step`,
 * applied in the order given (nested regexp_replace, innermost first); rows without such a
 * heading are not written.
 */
function shiftHeadingsSql(levels: number[], step: 1 | -1): string {
  let expression = '"content_html"';
  for (const level of levels) {
    // `<h5 id="x">` and `</h5>`: the tag name ends at whitespace, `>` or `/`.
    expression = `regexp_replace(${expression}, '<(/?)h${level}([[:space:]/>])', '<\\1h${level + step}\\2', 'g')`;
  }
  const anyLevel = `[${levels.join('')}]`;
  return `UPDATE "posts" SET "content_html" = ${expression} WHERE "content_html" ~ '</?h${anyLevel}[[:space:]/>]'`;
}
