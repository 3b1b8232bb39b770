import { Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Tag } from '../../tags/entities/tag.entity';
import { Post } from './post.entity';

/** A tag on a post. The PK serves "tags of these posts"; IDX_post_tags_tag_post serves "posts of this tag". */
@Entity('post_tags')
@Index('IDX_post_tags_tag_post', ['tagId', 'postId'])
export class PostTag {
  @PrimaryColumn({ name: 'post_id', type: 'int', primaryKeyConstraintName: 'PK_post_tags' })
  postId: number;

  @PrimaryColumn({ name: 'tag_id', type: 'int', primaryKeyConstraintName: 'PK_post_tags' })
  tagId: number;

  @ManyToOne(() => Post, (post) => post.postTags, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_post_tags_post' })
  post: Post;

  @ManyToOne(() => Tag, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tag_id', foreignKeyConstraintName: 'FK_post_tags_tag' })
  tag: Tag;
}
