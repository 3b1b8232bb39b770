import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user';
import { ReviewDiffDto, RevisionDiffDto, RevisionDto, RevisionPageDto } from '../revisions/dto/revision.dto';
import { RevisionsService } from '../revisions/revisions.service';
import { PostsService } from './posts.service';

/**
 * A post's revisions as its editors read them: who may see them is who may edit the post
 * (PostsService's rule, checked before every read); the revisions themselves are RevisionsService's.
 */
@Injectable()
export class PostRevisionsService {
  constructor(
    private readonly posts: PostsService,
    private readonly revisions: RevisionsService,
  ) {}

  async list(id: number, page: number, size: number, user: AuthUser): Promise<RevisionPageDto> {
    await this.posts.assertReadable(id, user);
    return this.revisions.list(id, page, size);
  }

  async get(id: number, revisionId: number, user: AuthUser): Promise<RevisionDto> {
    await this.posts.assertReadable(id, user);
    return this.revisions.get(id, revisionId);
  }

  /** From revision `from` to revision `to`, or to the post as saved now when `to` is omitted. */
  async compare(id: number, from: number, to: number | undefined, user: AuthUser): Promise<RevisionDiffDto> {
    const post = await this.posts.findReadable(id, user);
    const tagSlugs = to === undefined ? (await this.posts.toResponse(post)).tags.map((tag) => tag.slug).sort() : [];
    return this.revisions.compare(id, from, to, { title: post.title, summary: post.summary, content: post.content, tagSlugs });
  }

  async reviewDiff(id: number, user: AuthUser): Promise<ReviewDiffDto> {
    await this.posts.assertReadable(id, user);
    return this.revisions.reviewDiff(id);
  }
}
