import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  OnModuleInit,
  UnauthorizedException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { toDataURL } from 'qrcode';
import { DataSource, EntityManager, IsNull, LessThan, Not, Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import type { UserFacts } from '../events/domain-events';
import { DomainEvents, LIVE_ONLY } from '../events/domain-events.service';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { User } from '../users/entities/user.entity';
import { readUserFacts } from '../users/user-facts';
import { UserLifecycleMessages } from '../users/user-lifecycle.messages';
import type { AuthUser } from '../auth/auth-user';
import { TwoFactorChallenge } from './entities/two-factor-challenge.entity';
import { TwoFactorRecoveryCode } from './entities/two-factor-recovery-code.entity';
import { UserTwoFactor } from './entities/user-two-factor.entity';
import { PasswordHasher } from '../auth/password-hasher';
import { deriveKey, SecretBox } from '../common/secret-box';
import { sha256 } from '../sessions/sessions.service';
import { AdminTwoFactorPolicy } from './admin-two-factor.policy';
import { TwoFactorSetupResponseDto, TwoFactorStatusResponseDto } from './dto/two-factor.dto';
import { TwoFactorMessages } from './two-factor.messages';
import { matchTotp, newRecoveryCodes, newTotpSecret, otpauthUri, readCode, TOTP_CODE } from './totp';

/** A challenge lives 5 minutes: time to open the authenticator app, not to keep a half sign-in around. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;
/** Wrong codes that end a challenge. */
export const CHALLENGE_MAX_FAILURES = 5;
/** The e-mail an admin's reset sends, through the job queue (retried while the SMTP server refuses). */
export const TWO_FACTOR_RESET_MAIL_QUEUE = 'two-factor-reset-email';

/** A sign-in that passed the password and now needs the second factor. */
export interface IssuedChallenge {
  challengeToken: string;
  expiresIn: number;
}

/** What a right code on a live challenge gives: whose session to start, and for how long. */
export interface PassedChallenge {
  userId: number;
  rememberMe: boolean;
}

/**
 * Two-factor sign-in (TOTP): the set-up, the recovery codes, the sign-in challenges,
 * turning it off and an administrator's reset. The secret is sealed at rest (SecretBox, key derived
 * from the server secret, bound to the user) and leaves the server only in the set-up's answer;
 * recovery codes are stored as HMACs. Sessions are not started here: AuthService does that with
 * the same code as a password-only sign-in.
 */
@Injectable()
export class TwoFactorService implements OnModuleInit {
  private readonly secrets: SecretBox;
  private readonly recoveryKey: Buffer;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @InjectRepository(UserTwoFactor) private readonly factors: Repository<UserTwoFactor>,
    @InjectRepository(TwoFactorRecoveryCode) private readonly recoveryCodes: Repository<TwoFactorRecoveryCode>,
    @InjectRepository(TwoFactorChallenge) private readonly challenges: Repository<TwoFactorChallenge>,
    private readonly dataSource: DataSource,
    private readonly passwords: PasswordHasher,
    private readonly policy: AdminTwoFactorPolicy,
    private readonly events: DomainEvents,
    private readonly jobs: JobsService,
    private readonly mail: MailService,
  ) {
    this.secrets = new SecretBox(config.jwtSecret, 'two-factor-secret');
    this.recoveryKey = deriveKey(config.jwtSecret, 'two-factor-recovery-codes');
  }

  onModuleInit(): void {
    this.jobs.register<{ userId: number }>(TWO_FACTOR_RESET_MAIL_QUEUE, async ({ data, lastAttempt }) => {
      const user = await this.dataSource
        .getRepository(User)
        .findOne({ where: { id: data.userId }, select: { id: true, email: true, fullName: true } });
      if (!user) return; // the account is gone: nobody to tell
      const sent = await this.mail.sendTwoFactorReset(user.email, user.fullName);
      if (!sent && !lastAttempt) throw new Error('two-factor reset e-mail not sent; retrying');
    });
    // An administrator's reset tells the owner by e-mail, through the job queue, in the reset's transaction.
    this.events.onRecorded(
      'user.two_factor_disabled',
      async ({ data }, manager) => {
        if (data.via === 'admin') await this.jobs.enqueue(manager, TWO_FACTOR_RESET_MAIL_QUEUE, { userId: data.userId });
      },
      LIVE_ONLY,
    );
  }

  // ---- the account's own set-up ------------------------------------------------------------------

  async status(caller: AuthUser): Promise<TwoFactorStatusResponseDto> {
    const row = await this.factors.findOne({ where: { userId: caller.id }, select: { userId: true, enabledAt: true } });
    const enabled = Boolean(row?.enabledAt);
    const recoveryCodesLeft = enabled ? await this.recoveryCodes.count({ where: { userId: caller.id, usedAt: IsNull() } }) : 0;
    const setupRequired = !enabled && (await this.policy.requiresSetUp(caller.id, caller.role));
    return { enabled, enabledAt: row?.enabledAt?.toISOString() ?? null, recoveryCodesLeft, setupRequired };
  }

  /** A new key waiting for its first code (replaces a waiting one); 409 when two-factor sign-in is on. */
  async startSetup(caller: AuthUser): Promise<TwoFactorSetupResponseDto> {
    const secret = newTotpSecret();
    const otpauthUrl = otpauthUri(secret, caller.email);
    await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(UserTwoFactor);
      const row = await repo.findOne({ where: { userId: caller.id }, lock: { mode: 'pessimistic_write' } });
      if (row?.enabledAt) throw new ConflictException(TwoFactorMessages.ALREADY_ON);
      const secretSealed = this.seal(caller.id, secret);
      if (row) await repo.update({ userId: caller.id }, { secretSealed, lastUsedStep: null });
      else await repo.insert({ userId: caller.id, secretSealed, enabledAt: null, lastUsedStep: null });
    });
    const qrCode = await toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 224 });
    return { secret, otpauthUrl, qrCode };
  }

  /**
   * The first right code turns it on and makes the 10 recovery codes (answered once, here). With
   * `signOutOthers` the account's other sessions end with it (`user.two_factor_enabled`'s
   * subscriber in sessions/), all but `keptSessionId`, the one that turned it on.
   */
  async confirmSetup(
    userId: number,
    code: string,
    sessions: { signOutOthers: boolean; keptSessionId: string | null } = { signOutOthers: true, keptSessionId: null },
  ): Promise<string[]> {
    const codes = newRecoveryCodes();
    const enabled = await this.events.transaction(async ({ manager, record }) => {
      const repo = manager.getRepository(UserTwoFactor);
      const row = await repo.findOne({ where: { userId }, lock: { mode: 'pessimistic_write' } });
      if (!row) throw new ConflictException(TwoFactorMessages.NO_SETUP);
      if (row.enabledAt) throw new ConflictException(TwoFactorMessages.ALREADY_ON);
      const step = await this.totpStep(row, code);
      if (step === null) return false;
      await repo.update({ userId }, { enabledAt: new Date(), lastUsedStep: step });
      await this.replaceRecoveryCodes(manager, userId, codes);
      const facts = await this.userFacts(manager, userId);
      await record({
        name: 'user.two_factor_enabled',
        actor: { id: userId, name: facts.fullName },
        data: { ...facts, signOutOtherSessions: sessions.signOutOthers, keptSessionId: sessions.keptSessionId },
      });
      return true;
    });
    if (!enabled)
      throw new BadRequestException({ message: TwoFactorMessages.CODE_WRONG, errors: { code: [TwoFactorMessages.CODE_WRONG] } });
    return codes;
  }

  /** Turning it off takes the password and a code (authenticator or recovery). */
  async disable(userId: number, password: string, code: string): Promise<void> {
    const user = await this.dataSource.getRepository(User).findOne({ where: { id: userId }, select: { id: true, passwordHash: true } });
    if (!user || !(await this.passwords.verify(password, user.passwordHash)).matches) {
      throw new BadRequestException({
        message: TwoFactorMessages.PASSWORD_WRONG,
        errors: { password: [TwoFactorMessages.PASSWORD_WRONG] },
      });
    }
    const done = await this.events.transaction(async ({ manager, record }) => {
      if (!(await this.checkCode(manager, userId, code))) return false;
      await this.removeAll(manager, userId);
      const facts = await this.userFacts(manager, userId);
      await record({ name: 'user.two_factor_disabled', actor: { id: userId, name: facts.fullName }, data: { ...facts, via: 'self' } });
      return true;
    });
    if (!done) throw new BadRequestException({ message: TwoFactorMessages.CODE_WRONG, errors: { code: [TwoFactorMessages.CODE_WRONG] } });
  }

  /** New recovery codes for an authenticator code; the old ones stop working. */
  async regenerateRecoveryCodes(userId: number, code: string): Promise<string[]> {
    const codes = newRecoveryCodes();
    const done = await this.events.transaction(async ({ manager, record }) => {
      const row = await manager.getRepository(UserTwoFactor).findOne({ where: { userId }, lock: { mode: 'pessimistic_write' } });
      if (!row?.enabledAt) throw new ConflictException(TwoFactorMessages.NOT_ON);
      const step = await this.totpStep(row, code);
      if (step === null) return false;
      await manager.getRepository(UserTwoFactor).update({ userId }, { lastUsedStep: step });
      await this.replaceRecoveryCodes(manager, userId, codes);
      const facts = await this.userFacts(manager, userId);
      await record({ name: 'user.recovery_codes_renewed', actor: { id: userId, name: facts.fullName }, data: facts });
      return true;
    });
    if (!done) throw new BadRequestException({ message: TwoFactorMessages.CODE_WRONG, errors: { code: [TwoFactorMessages.CODE_WRONG] } });
    return codes;
  }

  // ---- sign-in -------------------------------------------------------------------------------

  /**
   * A sensitive account action (deleting the account, cancelling its deletion) takes a code too when
   * two-factor sign-in is on: true when it is off, or when `code` passes (an authenticator code ±1
   * step, never twice, or an unused recovery code, which it uses up, as at sign-in).
   */
  async passesIfEnabled(userId: number, code: string | undefined): Promise<boolean> {
    return this.dataSource.transaction((manager) => this.passesIfEnabledIn(manager, userId, code));
  }

  /**
   * passesIfEnabled in the caller's transaction: the code is used up only if that transaction
   * commits, so a change that is then refused (and rolled back) leaves the code usable.
   */
  async passesIfEnabledIn(manager: EntityManager, userId: number, code: string | undefined): Promise<boolean> {
    const row = await manager
      .getRepository(UserTwoFactor)
      .findOne({ where: { userId }, select: { userId: true, enabledAt: true }, lock: { mode: 'pessimistic_write' } });
    if (!row?.enabledAt) return true;
    if (!code) return false;
    return this.checkCode(manager, userId, code);
  }

  async isEnabled(userId: number): Promise<boolean> {
    return this.factors.exists({ where: { userId, enabledAt: Not(IsNull()) } });
  }

  /** A short-lived challenge for a sign-in whose password was right (its token, not a session). */
  async startChallenge(userId: number, rememberMe: boolean): Promise<IssuedChallenge> {
    const challengeToken = randomBytes(32).toString('base64url');
    // Housekeeping: the user's challenges that ended long ago serve nothing.
    await this.challenges.delete({ userId, expiresAt: LessThan(new Date(Date.now() - 60 * 60_000)) });
    await this.challenges.insert({
      id: randomUUID(),
      userId,
      tokenHash: sha256(challengeToken),
      rememberMe,
      failedAttempts: 0,
      expiresAt: new Date(Date.now() + CHALLENGE_TTL_SECONDS * 1000),
    });
    return { challengeToken, expiresIn: CHALLENGE_TTL_SECONDS };
  }

  /** The account a live challenge belongs to (its e-mail keys the per-account limit); 401 when it has ended. */
  async challengeAccount(challengeToken: string): Promise<{ userId: number; email: string }> {
    const row = await this.challenges.findOne({ where: { tokenHash: sha256(challengeToken) }, relations: { user: true } });
    if (!row?.user || !this.isLive(row)) throw new UnauthorizedException(TwoFactorMessages.CHALLENGE_ENDED);
    return { userId: row.userId, email: row.user.email };
  }

  /**
   * Checks a code against a live challenge: a right one uses the challenge up; a wrong one is
   * counted (committed before answering 401), and the fifth ends it.
   */
  async passChallenge(challengeToken: string, code: string): Promise<PassedChallenge> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(TwoFactorChallenge);
      const row = await repo.findOne({ where: { tokenHash: sha256(challengeToken) }, lock: { mode: 'pessimistic_write' } });
      if (!row || !this.isLive(row)) return 'ended' as const;
      if (!(await this.checkCode(manager, row.userId, code))) {
        await repo.increment({ id: row.id }, 'failedAttempts', 1);
        return 'wrong' as const;
      }
      await repo.delete({ id: row.id });
      return { userId: row.userId, rememberMe: row.rememberMe };
    });
    if (outcome === 'ended') throw new UnauthorizedException(TwoFactorMessages.CHALLENGE_ENDED);
    if (outcome === 'wrong')
      throw new UnauthorizedException({ message: TwoFactorMessages.CODE_WRONG, errors: { code: [TwoFactorMessages.CODE_WRONG] } });
    return outcome;
  }

  // ---- administration ------------------------------------------------------------------------

  /**
   * An administrator turns off a user's two-factor sign-in (a lost phone): `user.two_factor_disabled`
   * via admin, whose subscribers write the audit entry and enqueue the user's e-mail (onModuleInit),
   * all in the same transaction as the change.
   */
  async resetByAdmin(userId: number, actor: AuthUser): Promise<void> {
    if (userId === actor.id) throw new ConflictException(TwoFactorMessages.ADMIN_RESET_SELF);
    await this.events.transaction(async ({ manager, record }) => {
      const user = await readUserFacts(manager, userId);
      if (!user) throw new NotFoundException(UserLifecycleMessages.USER_NOT_FOUND);
      const row = await manager.getRepository(UserTwoFactor).findOne({ where: { userId }, lock: { mode: 'pessimistic_write' } });
      if (!row?.enabledAt) throw new ConflictException(TwoFactorMessages.ADMIN_RESET_NOT_ON);
      await this.removeAll(manager, userId);
      await record({ name: 'user.two_factor_disabled', actor: { id: actor.id, name: actor.fullName }, data: { ...user, via: 'admin' } });
    });
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** The account as its events name it (in the change's transaction). */
  private async userFacts(manager: EntityManager, userId: number): Promise<UserFacts> {
    const facts = await readUserFacts(manager, userId);
    if (!facts) throw new NotFoundException(UserLifecycleMessages.USER_NOT_FOUND);
    return facts;
  }

  private isLive(row: TwoFactorChallenge): boolean {
    return row.expiresAt > new Date() && row.failedAttempts < CHALLENGE_MAX_FAILURES;
  }

  private seal(userId: number, secret: string): string {
    return this.secrets.seal(secret, `user:${userId}`);
  }

  /** The step a right authenticator code belongs to (newer than the last used one), else null. */
  private async totpStep(row: UserTwoFactor, code: string): Promise<number | null> {
    const typed = readCode(code);
    if (typed?.kind !== 'totp' || !TOTP_CODE.test(typed.code)) return null;
    const secret = this.secrets.open(row.secretSealed, `user:${row.userId}`);
    // Unreadable when the server secret changed since the set-up: no code can be right then.
    if (!secret) return null;
    return matchTotp(secret, typed.code, row.lastUsedStep);
  }

  /**
   * Whether a code is right for an account with two-factor sign-in on, using it up: an
   * authenticator code records its step (no replay), a recovery code is marked used. Runs in the
   * caller's transaction with the account's row locked, so two requests cannot both use one code.
   */
  private async checkCode(manager: EntityManager, userId: number, code: string): Promise<boolean> {
    const row = await manager.getRepository(UserTwoFactor).findOne({ where: { userId }, lock: { mode: 'pessimistic_write' } });
    if (!row?.enabledAt) return false;
    const typed = readCode(code);
    if (!typed) return false;
    if (typed.kind === 'totp') {
      const step = await this.totpStep(row, typed.code);
      if (step === null) return false;
      await manager.getRepository(UserTwoFactor).update({ userId }, { lastUsedStep: step });
      return true;
    }
    const used = await manager
      .getRepository(TwoFactorRecoveryCode)
      .update({ userId, codeHash: this.recoveryHash(userId, typed.code), usedAt: IsNull() }, { usedAt: new Date() });
    return (used.affected ?? 0) === 1;
  }

  private recoveryHash(userId: number, normalisedCode: string): string {
    return createHmac('sha256', this.recoveryKey).update(`${userId}:${normalisedCode}`).digest('hex');
  }

  private async replaceRecoveryCodes(manager: EntityManager, userId: number, codes: string[]): Promise<void> {
    const repo = manager.getRepository(TwoFactorRecoveryCode);
    await repo.delete({ userId });
    await repo.insert(codes.map((code) => ({ userId, codeHash: this.recoveryHash(userId, code.replace('-', '')), usedAt: null })));
  }

  private async removeAll(manager: EntityManager, userId: number): Promise<void> {
    await manager.getRepository(TwoFactorRecoveryCode).delete({ userId });
    await manager.getRepository(TwoFactorChallenge).delete({ userId });
    await manager.getRepository(UserTwoFactor).delete({ userId });
  }
}
