import { Check, Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Post } from '../../posts/entities/post.entity';

export const POST_SEND_STATES = ['pending', 'queued', 'sending', 'done', 'off'] as const;
export type PostSendState = (typeof POST_SEND_STATES)[number];

/** A post's newsletter send: whether it e-mails at all ('Publish without e-mail': `send_email` false, state 'off') and how far it got. */
@Entity('newsletter_post_sends')
@Check('CHK_newsletter_post_sends_state', `"state" IN ('pending', 'queued', 'sending', 'done', 'off')`)
export class NewsletterPostSend {
  @PrimaryColumn({ name: 'post_id', type: 'int', primaryKeyConstraintName: 'PK_newsletter_post_sends' })
  postId: number;

  @ManyToOne(() => Post, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'post_id', foreignKeyConstraintName: 'FK_newsletter_post_sends_post' })
  post: Post;

  @Column({ name: 'send_email', type: 'boolean', default: true })
  sendEmail: boolean;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  state: PostSendState;

  @Column({ type: 'int', default: 0 })
  recipients: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;
}
