import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { User, UserStatus } from '../users/entities/user.entity';
import { AuthService } from '../auth/auth.service';

export const ACCOUNT_INVITATION_QUEUE = 'account-invitation-email';

/** An invitation's link lives this long (a reset link asked for on 'Forgot password' lives 30 minutes). */
export const INVITATION_TTL_DAYS = 7;

export interface AccountInvitationJob {
  userId: number;
  /** Who asked for it (the administrator running the import), named in the e-mail. */
  invitedBy: string;
}

/**
 * Invitations to accounts made for someone else (the authors a site import creates,
 * unverified and without a password). The caller enqueues one in the transaction that creates the
 * account, so there is an invitation exactly when the account exists. The job issues an ordinary
 * password reset link (AuthService.issueResetLink, living INVITATION_TTL_DAYS) and mails it; using
 * it sets the first password and verifies the address (AuthService.resetPassword). The token is
 * made when the e-mail is sent, never stored in the queue; a retried send makes a new one.
 */
@Injectable()
export class AccountInvitations implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: JobsService,
    private readonly auth: AuthService,
    private readonly mail: MailService,
  ) {}

  onModuleInit(): void {
    this.jobs.register<AccountInvitationJob>(ACCOUNT_INVITATION_QUEUE, (job) => this.send(job));
  }

  /** Queues the invitation with the caller's transaction (the one creating the account). */
  async enqueue(manager: EntityManager, job: AccountInvitationJob): Promise<void> {
    await this.jobs.enqueue(manager, ACCOUNT_INVITATION_QUEUE, job);
  }

  private async send({ data, lastAttempt }: JobRun<AccountInvitationJob>): Promise<void> {
    const user = await this.dataSource
      .getRepository(User)
      .findOne({ where: { id: data.userId }, select: { id: true, email: true, fullName: true, isVerified: true, status: true } });
    // Gone, claimed meanwhile ('Forgot password', an administrator's edit) or banned: nothing to invite to.
    if (!user || user.isVerified || user.status !== UserStatus.PENDING) return;
    const link = await this.auth.issueResetLink(user.id, INVITATION_TTL_DAYS * 24 * 60);
    const sent = await this.mail.sendImportInvitation(user.email, user.fullName, data.invitedBy, link, INVITATION_TTL_DAYS);
    if (!sent && !lastAttempt) throw new Error('invitation e-mail not sent; retrying');
  }
}
