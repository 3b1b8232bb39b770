import { BadRequestException, ConflictException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { AuthMessages } from '../auth/auth.messages';
import { AuthService } from '../auth/auth.service';
import { PasswordHasher } from '../auth/password-hasher';
import { TwoFactorMessages } from '../two-factor/two-factor.messages';
import { TwoFactorService } from '../two-factor/two-factor.service';
import { CLOCK, Clock } from '../common/clock';
import { APP_CONFIG, AppConfig } from '../config/env';
import { User } from '../users/entities/user.entity';
import { UserLifecycleService } from '../users/user-lifecycle.service';
import { normalizeEmail } from '../users/users.service';
import { AccountDataMessages } from './account-data.messages';
import { AccountDeletionCancelDto, AccountDeletionRequestDto, AccountDeletionScheduledDto } from './dto/account-data.dto';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * 'Delete my account' and the back office's 'Delete user'. The owner proves who they
 * are (password, two-factor code, the typed word) and the account is scheduled for erasure after
 * ACCOUNT_DELETION_GRACE_DAYS; an administrator's deletion is due at once (no grace: the owner did
 * not ask, and a deleted spammer must not come back by signing in). The user lifecycle writes the
 * schedule, ends the sessions and enqueues the erasure job in one transaction
 * (UserLifecycleService.scheduleDeletion); AccountErasureService runs it.
 */
@Injectable()
export class AccountDeletionService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly passwords: PasswordHasher,
    private readonly lifecycle: UserLifecycleService,
    private readonly twoFactor: TwoFactorService,
    private readonly auth: AuthService,
  ) {}

  /** The owner's request: checked, then scheduled; the caller's sessions end with it. */
  async requestOwn(caller: AuthUser, dto: AccountDeletionRequestDto): Promise<AccountDeletionScheduledDto> {
    const user = await this.users.findOne({ where: { id: caller.id }, select: { id: true, passwordHash: true } });
    if (!user || !(await this.passwords.verify(dto.password, user.passwordHash)).matches) {
      throw new BadRequestException({
        message: AccountDataMessages.PASSWORD_WRONG,
        errors: { password: [AccountDataMessages.PASSWORD_WRONG] },
      });
    }
    await this.verifyTwoFactorForAccountAction(user.id, dto.twoFactorCode);
    const dueAt = new Date(this.clock.now().getTime() + this.config.accountDeletionGraceDays * DAY_MS);
    await this.lifecycle.scheduleDeletion(user.id, dueAt, 'self', caller);
    return { deletionScheduledFor: dueAt.toISOString() };
  }

  /**
   * 'Cancel deletion' from the login page (the account has no session while it waits). It takes
   * the password (and the code) like sign-in, so it is held to sign-in's limits and gives sign-in's
   * answers, and tells a guesser no more than sign-in would: every try counts against the
   * account's sign-in limit (429 past it, the right password included); a wrong e-mail or password
   * is sign-in's 401 'Incorrect email or password.'; a missing or wrong code is sign-in's 401 for a
   * wrong code. The code is checked in the cancellation's transaction and used up only when the
   * cancellation commits; the right data of an account with nothing to cancel is 409 (nothing used
   * up). A cancellation clears the count, as a sign-in does.
   */
  async cancel(dto: AccountDeletionCancelDto): Promise<void> {
    const email = normalizeEmail(dto.email);
    await this.auth.countLoginAttempt(email);
    const user = await this.users.findOne({ where: { email }, select: { id: true, passwordHash: true } });
    const check = await this.passwords.verify(dto.password, user?.passwordHash);
    if (!user || !check.matches) throw new UnauthorizedException(AuthMessages.LOGIN_FAILED);
    const cancelled = await this.lifecycle.cancelDeletion(user.id, (manager) =>
      this.twoFactor.passesIfEnabledIn(manager, user.id, dto.twoFactorCode),
    );
    if (!cancelled)
      throw new UnauthorizedException({ message: TwoFactorMessages.CODE_WRONG, errors: { twoFactorCode: [TwoFactorMessages.CODE_WRONG] } });
    await this.auth.resetLoginAttempts(email);
  }

  /** The back office's 'Delete user': disabled now, erased by the next run of the queue. Not oneself (409: use /account). */
  async deleteByAdmin(id: number, actor: AuthUser): Promise<AccountDeletionScheduledDto> {
    if (id === actor.id) throw new ConflictException(AccountDataMessages.ADMIN_DELETE_SELF);
    const dueAt = this.clock.now();
    await this.lifecycle.scheduleDeletion(id, dueAt, 'admin', actor);
    return { deletionScheduledFor: dueAt.toISOString() };
  }

  /** With two-factor sign-in on, deletion and its cancellation take a code as well as the password (TwoFactorService decides). */
  private async verifyTwoFactorForAccountAction(userId: number, code: string | undefined): Promise<void> {
    if (await this.twoFactor.passesIfEnabled(userId, code)) return;
    throw new BadRequestException({
      message: AccountDataMessages.TWO_FACTOR_WRONG,
      errors: { twoFactorCode: [AccountDataMessages.TWO_FACTOR_WRONG] },
    });
  }
}
