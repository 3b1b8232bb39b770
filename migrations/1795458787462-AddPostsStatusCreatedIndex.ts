import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The back-office post list filtered by status, newest first (GET /blog/posts/admin/all?status=):
 * (status, created_at, id) gives a page's ids in order from the index and the status's count from
 * an index-only scan, instead of reading and sorting every post of the status.
 */
export class AddPostsStatusCreatedIndex1795458787462 implements MigrationInterface {
  name = 'AddPostsStatusCreatedIndex1795458787462';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_posts_status_created" ON "posts"  ("status", "created_at", "id") `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_posts_status_created"`);
  }
}
