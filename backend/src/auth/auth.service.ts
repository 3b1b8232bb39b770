import { siteTimeFormatter } from '../common/site-time';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  UnauthorizedException,
} from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { DataSource, IsNull, LessThan, Repository } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/env';
import { MailService } from '../mail/mail.service';
import { RedisService } from '../redis/redis.service';
import { UserResponseDto } from '../users/dto/user-response.dto';
import { DomainEvents } from '../events/domain-events.service';
import { RoleName } from '../users/roles';
import { User, UserStatus } from '../users/entities/user.entity';
import { UserLifecycleService } from '../users/user-lifecycle.service';
import { isUniqueViolation } from '../common/database-errors';
import { TooManyRequestsException } from '../common/too-many-requests';
import { normalizeEmail, UsersService } from '../users/users.service';
import { AttemptCounter, TooManyAttemptsException } from './attempts/attempt-counter';
import { AuthMessages } from './auth.messages';
import { deriveKey } from '../common/secret-box';
import { PasswordHasher } from './password-hasher';
import { ACCESS_TOKEN_TTL_SECONDS, AccessTokenPayload } from './auth-user';
import {
  AuthForgotPasswordDto,
  AuthLoginDto,
  AuthRegisterDto,
  AuthResetPasswordDto,
  AuthVerifyEmailDto,
  TokenSetResponseDto,
  UserChangePasswordDto,
} from './dto/auth.dto';
import { EmailVerificationCode } from './entities/email-verification-code.entity';
import { PasswordResetToken } from './entities/password-reset-token.entity';
import { ClientInfo, IssuedRefreshToken, SessionsService, sha256 } from '../sessions/sessions.service';
import { AdminTwoFactorPolicy } from '../two-factor/admin-two-factor.policy';
import { TwoFactorLoginDto } from '../two-factor/dto/two-factor.dto';
import { TwoFactorMessages } from '../two-factor/two-factor.messages';
import { IssuedChallenge, TwoFactorService } from '../two-factor/two-factor.service';

export const CODE_TTL_MINUTES = 15;
export const CODE_MAX_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 60;
export const RESET_TTL_MINUTES = 30;

/** The per-account sign-in counter's key. */
function loginAttemptKey(email: string): string {
  return `login:${email}`;
}

export interface TokenSet extends TokenSetResponseDto {
  /** For the controller's cookies. */
  refreshExpiresAt: Date;
}

/** The sign-in of an account with two-factor sign-in, before its code: a challenge, not a session. */
export interface LoginChallenge {
  challenge: IssuedChallenge;
}

/**
 * Sign-up with e-mail verification, login, refresh rotation, logout, password reset and change.
 * No HTTP here: the controller sets the cookies and shapes the answers.
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectRepository(User) private readonly users: Repository<User>,
    @InjectRepository(EmailVerificationCode) private readonly codes: Repository<EmailVerificationCode>,
    @InjectRepository(PasswordResetToken) private readonly resets: Repository<PasswordResetToken>,
    private readonly dataSource: DataSource,
    private readonly usersService: UsersService,
    private readonly sessions: SessionsService,
    private readonly jwt: JwtService,
    private readonly mail: MailService,
    private readonly attempts: AttemptCounter,
    private readonly redis: RedisService,
    private readonly passwords: PasswordHasher,
    private readonly events: DomainEvents,
    private readonly lifecycle: UserLifecycleService,
    private readonly twoFactor: TwoFactorService,
    private readonly adminTwoFactor: AdminTwoFactorPolicy,
  ) {}

  // ---- sign-up and verification -------------------------------------------------------------

  /** Creates a PENDING, unverified USER and mails a code; `mailed` false when the e-mail failed. */
  async register(dto: AuthRegisterDto): Promise<{ user: UserResponseDto; mailed: boolean }> {
    const email = normalizeEmail(dto.email);
    if (await this.users.exists({ where: { email } })) throw new ConflictException(AuthMessages.EMAIL_IN_USE);
    const passwordHash = await this.passwords.hash(dto.password);
    const code = this.newCode();
    let userId: number;
    try {
      userId = await this.events.transaction(async (tx) => {
        const user = await this.usersService.create(
          { fullName: dto.fullName, email, passwordHash, status: UserStatus.PENDING, verified: false, roles: [RoleName.USER] },
          { via: 'register' },
          tx,
        );
        await tx.manager.getRepository(EmailVerificationCode).insert({
          userId: user.userId,
          codeHash: this.hashCode(user.userId, code),
          expiresAt: this.minutesFromNow(CODE_TTL_MINUTES),
          attempts: 0,
          consumedAt: null,
          resentAt: null,
        });
        return user.userId;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictException(AuthMessages.EMAIL_IN_USE);
      throw error;
    }
    const mailed = await this.mail.sendVerificationCode(email, dto.fullName, code, CODE_TTL_MINUTES);
    return { user: await this.usersService.getProfile(userId), mailed };
  }

  /** The e-mail's live code activates the account. Unknown e-mails answer like a wrong code. */
  async verifyEmail(dto: AuthVerifyEmailDto): Promise<UserResponseDto> {
    const userId = await this.events.transaction(async (tx) => {
      const { manager } = tx;
      const user = await manager.getRepository(User).findOne({ where: { email: normalizeEmail(dto.email) } });
      if (!user || user.isVerified) throw new BadRequestException(AuthMessages.CODE_WRONG);
      const codes = manager.getRepository(EmailVerificationCode);
      const row = await codes.findOne({ where: { userId: user.id }, lock: { mode: 'pessimistic_write' } });
      if (!row || row.consumedAt) throw new BadRequestException(AuthMessages.CODE_WRONG);
      if (row.attempts >= CODE_MAX_ATTEMPTS) throw new BadRequestException(AuthMessages.CODE_TOO_MANY);
      if (row.expiresAt <= new Date()) throw new BadRequestException(AuthMessages.CODE_EXPIRED);
      if (!this.sameHash(row.codeHash, this.hashCode(user.id, dto.verificationCode))) {
        await codes.increment({ id: row.id }, 'attempts', 1);
        return null;
      }
      await codes.update({ id: row.id }, { consumedAt: new Date() });
      // PENDING → ACTIVE (the back office's totals by status drop after the commit).
      await this.lifecycle.markVerified(tx, user.id);
      return user.id;
    });
    // The wrong try is counted (committed) before answering.
    if (userId === null) throw new BadRequestException(AuthMessages.CODE_WRONG);
    return this.usersService.getProfile(userId);
  }

  /**
   * Replaces the code and mails it: allowed at once after sign-up, then once per 60 s (429 with
   * the wait). Unknown or verified e-mails get the same success answer and no mail.
   */
  async resendVerification(emailInput: string): Promise<void> {
    const email = normalizeEmail(emailInput);
    const user = await this.users.findOne({ where: { email } });
    const now = new Date();
    if (!user || user.isVerified) {
      // Same answers as for a real pending account, cool-down included (no enumeration).
      const wait = (await this.sharedPhantomCooldown(email)) ?? this.phantomCooldown(email, now.getTime());
      if (wait > 0) throw new TooManyRequestsException(AuthMessages.resendWait(wait), wait);
      return;
    }
    const code = this.newCode();
    const wait = await this.dataSource.transaction(async (manager) => {
      const codes = manager.getRepository(EmailVerificationCode);
      const row = await codes.findOne({ where: { userId: user.id }, lock: { mode: 'pessimistic_write' } });
      if (row?.resentAt) {
        const elapsed = (now.getTime() - row.resentAt.getTime()) / 1000;
        if (elapsed < RESEND_COOLDOWN_SECONDS) return Math.max(1, Math.ceil(RESEND_COOLDOWN_SECONDS - elapsed));
      }
      const fresh = {
        codeHash: this.hashCode(user.id, code),
        expiresAt: this.minutesFromNow(CODE_TTL_MINUTES),
        attempts: 0,
        consumedAt: null,
        resentAt: now,
      };
      if (row) await codes.update({ id: row.id }, fresh);
      else await codes.insert({ userId: user.id, ...fresh });
      return 0;
    });
    if (wait > 0) throw new TooManyRequestsException(AuthMessages.resendWait(wait), wait);
    void this.mail.sendVerificationCode(email, user.fullName, code, CODE_TTL_MINUTES);
  }

  // ---- sessions ------------------------------------------------------------------------------

  /**
   * Besides the per-address limit, sign-ins are counted per account (the normalised e-mail,
   * known or not, so the 429 reveals nothing): past LOGIN_ACCOUNT_LIMIT failures in the window,
   * every attempt is 429, the right password included. A right password resets the count.
   */
  async login(dto: AuthLoginDto, client: ClientInfo): Promise<TokenSet | LoginChallenge> {
    const email = normalizeEmail(dto.email);
    await this.countLoginAttempt(email);
    const user = await this.users.findOne({ where: { email } });
    const check = await this.passwords.verify(dto.password, user?.passwordHash);
    if (!user || !check.matches) throw new UnauthorizedException(AuthMessages.LOGIN_FAILED);
    // A hash of the older scheme (plain bcrypt, cut at 72 bytes) is replaced now the password is known.
    if (check.needsUpgrade) await this.lifecycle.upgradePasswordHash(user.id, user.passwordHash, await this.passwords.hash(dto.password));
    await this.assertMaySignIn(user);
    // With two-factor sign-in the password alone is half a sign-in: the count is kept (the codes
    // add to it) and cleared only when the code is right, so a known password cannot buy endless guesses.
    if (await this.twoFactor.isEnabled(user.id))
      return { challenge: await this.twoFactor.startChallenge(user.id, dto.rememberMe ?? false) };
    await this.resetLoginAttempts(email);
    return this.startSession(user.id, dto.rememberMe ?? false, client);
  }

  /**
   * The second step of a sign-in with two-factor sign-in: the challenge's code (authenticator or
   * recovery). Each try counts towards the per-account limit like a password; the challenge ends
   * after 5 wrong codes, or when its minutes are up.
   */
  async loginWithTwoFactor(dto: TwoFactorLoginDto, client: ClientInfo): Promise<TokenSet> {
    const account = await this.twoFactor.challengeAccount(dto.challengeToken);
    await this.countLoginAttempt(account.email);
    const passed = await this.twoFactor.passChallenge(dto.challengeToken, dto.code);
    const user = await this.users.findOne({ where: { id: passed.userId } });
    if (!user) throw new UnauthorizedException(TwoFactorMessages.CHALLENGE_ENDED);
    // Banned or deactivated between the two steps: no session.
    await this.assertMaySignIn(user);
    await this.resetLoginAttempts(account.email);
    return this.startSession(user.id, passed.rememberMe, client);
  }

  /** The one way a sign-in becomes a session (password only, or password and code). */
  private async startSession(userId: number, rememberMe: boolean, client: ClientInfo): Promise<TokenSet> {
    await this.lifecycle.recordSignIn(userId);
    const issued = await this.sessions.start(userId, rememberMe, client);
    const tokens = await this.tokenSet(issued);
    // An administrator the site requires to use two-factor sign-in is sent to its set-up first.
    if (await this.adminTwoFactor.requiresSetUp(userId, tokens.user.role)) tokens.twoFactorSetupRequired = true;
    return tokens;
  }

  /**
   * Told only after the right password: a banned account hears it is banned, with the ban's reason
   * (the admin's note stays internal); an unverified one gets the spec's 403 text with a field
   * error on `email`, the sign of an address to verify (the login page then offers verification);
   * any other locked state the spec's text alone.
   */
  private async assertMaySignIn(user: User): Promise<void> {
    if (user.status === UserStatus.BANNED) {
      const [ban] = (await this.dataSource.query(
        'SELECT reason FROM user_bans WHERE user_id = $1 AND unbanned_at IS NULL ORDER BY banned_at DESC, id DESC LIMIT 1',
        [user.id],
      )) as { reason: string }[];
      throw new ForbiddenException(AuthMessages.accountBanned(ban?.reason));
    }
    if (user.deletionDueAt) {
      // `errors.deletionScheduledFor` carries the time for the login page's 'Cancel deletion' step.
      const when = siteTimeFormatter(this.config.siteTimeZone)(user.deletionDueAt);
      throw new ForbiddenException({
        message: AuthMessages.deletionScheduled(when),
        errors: { deletionScheduledFor: [user.deletionDueAt.toISOString()] },
      });
    }
    if (!user.isVerified) {
      throw new ForbiddenException({ message: AuthMessages.ACCOUNT_LOCKED, errors: { email: [AuthMessages.EMAIL_NOT_VERIFIED] } });
    }
    if (user.status !== UserStatus.ACTIVE) throw new ForbiddenException(AuthMessages.ACCOUNT_LOCKED);
  }

  /** Counted before the password is checked, so parallel guesses cannot pass the limit together. */
  /**
   * Counts one attempt against the account's sign-in limit (the normalised e-mail): 429 past it.
   * Public for the other doors that take the password (cancelling a pending deletion), so they
   * share sign-in's count instead of adding guesses to it.
   */
  async countLoginAttempt(email: string): Promise<void> {
    if (this.config.throttleDisabled) return;
    const { failures, windowMinutes } = this.config.loginAccountLimit;
    const verdict = await this.attempts.hit(loginAttemptKey(email), failures, windowMinutes * 60_000);
    if (!verdict.allowed) throw new TooManyAttemptsException(verdict.retryAfterSeconds);
  }

  /** A full success (password and, when on, the code) clears the account's count. */
  async resetLoginAttempts(email: string): Promise<void> {
    if (!this.config.throttleDisabled) await this.attempts.reset(loginAttemptKey(email));
  }

  /** Rotation; anything but a live, unused token is 401 'Token refresh failed'. */
  async refresh(refreshToken: string | undefined, client: ClientInfo): Promise<TokenSet> {
    if (!refreshToken) throw new UnauthorizedException(AuthMessages.REFRESH_FAILED);
    const result = await this.sessions.rotate(refreshToken, client);
    if (!result.ok) {
      if (result.reason === 'reused') this.logger.warn('A rotated refresh token was presented again: its session was revoked');
      throw new UnauthorizedException(AuthMessages.REFRESH_FAILED);
    }
    const state = await this.usersService.findAuthUser(result.issued.userId);
    if (state === 'not-found' || state === 'locked') {
      await this.sessions.revokeFamily(result.issued.familyId);
      throw new UnauthorizedException(AuthMessages.REFRESH_FAILED);
    }
    return this.tokenSet(result.issued);
  }

  /** Ends the session named by a refresh token, else by an access token's sid; never fails. */
  async logout(refreshToken: string | undefined, accessToken: string | undefined): Promise<void> {
    if (refreshToken) {
      await this.sessions.revokeByToken(refreshToken);
      return;
    }
    if (!accessToken) return;
    try {
      const payload = await this.jwt.verifyAsync<AccessTokenPayload>(accessToken);
      if (payload.sid && typeof payload.sub === 'number') {
        if (await this.sessions.isLive(payload.sid, payload.sub)) await this.sessions.revokeFamily(payload.sid);
      }
    } catch {
      // An invalid or expired access token names no session to end.
    }
  }

  // ---- passwords -----------------------------------------------------------------------------

  /**
   * Mails a reset link when the account exists; the answer is the same either way. An account an
   * import created (unverified, no password) gets the same link: using it sets its first password
   * and, as the link proves the address, verifies it (resetPassword).
   */
  async forgotPassword(dto: AuthForgotPasswordDto): Promise<void> {
    const user = await this.users.findOne({ where: { email: normalizeEmail(dto.email) } });
    if (!user || user.status === UserStatus.BANNED) return;
    const link = await this.issueResetLink(user.id, RESET_TTL_MINUTES, this.resetOrigin(dto.redirectUrl));
    void this.mail.sendPasswordReset(user.email, user.fullName, link, RESET_TTL_MINUTES);
  }

  /**
   * A new single-use reset link for the account, valid `minutes`; it ends the account's older
   * links. The one issuer of reset tokens: 'Forgot password' and an import's invitation
   * (AccountInvitations) both send one.
   */
  async issueResetLink(userId: number, minutes: number, origin: string = this.config.publicUrl): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.dataSource.transaction(async (manager) => {
      const resets = manager.getRepository(PasswordResetToken);
      // One link at a time: requesting a new one ends the older ones; long-dead rows go.
      await resets.delete({ userId, expiresAt: LessThan(new Date(Date.now() - 24 * 60 * 60 * 1000)) });
      await resets.update({ userId, usedAt: IsNull() }, { usedAt: new Date() });
      await resets.insert({ userId, tokenHash: sha256(token), expiresAt: this.minutesFromNow(minutes), usedAt: null });
    });
    return `${origin}/reset-password?token=${encodeURIComponent(token)}`;
  }

  async validateResetToken(token: string | undefined): Promise<boolean> {
    if (!token) return false;
    const row = await this.resets.findOneBy({ tokenHash: sha256(token) });
    return Boolean(row && !row.usedAt && row.expiresAt > new Date());
  }

  /**
   * Single use; sets the password (the user lifecycle's `setPassword`, via reset: every session of
   * the user ends with it). The link came by e-mail, so
   * it proves the address: an account still waiting for that proof (PENDING and unverified: an
   * import's author invited or asking 'Forgot password', a sign-up that never entered its code)
   * is verified and ACTIVE through the user lifecycle. Other states (deactivated, banned) stay.
   */
  async resetPassword(dto: AuthResetPasswordDto): Promise<void> {
    const passwordHash = await this.passwords.hash(dto.newPassword);
    const facts = await this.events.transaction(async (tx) => {
      const resets = tx.manager.getRepository(PasswordResetToken);
      const row = await resets.findOne({ where: { tokenHash: sha256(dto.token) }, lock: { mode: 'pessimistic_write' } });
      if (!row || row.usedAt || row.expiresAt <= new Date()) throw new BadRequestException(AuthMessages.RESET_TOKEN_INVALID);
      await resets.update({ id: row.id }, { usedAt: new Date() });
      const user = await this.lifecycle.setPassword(tx, row.userId, passwordHash, { via: 'reset' });
      if (!user.verified && user.status === UserStatus.PENDING) await this.lifecycle.markVerified(tx, user.userId);
      return user;
    });
    // The reset link proved the mailbox: lift a sign-in limit others may have run the account into.
    await this.resetLoginAttempts(facts.email);
  }

  /** Checks the current password, sets the new one (`setPassword` via change: the user's other sessions end). */
  async changePassword(userId: number, sessionId: string | undefined, dto: UserChangePasswordDto): Promise<void> {
    const user = await this.users.findOne({ where: { id: userId } });
    if (!user || !(await this.passwords.verify(dto.currentPassword, user.passwordHash)).matches) {
      throw new BadRequestException(AuthMessages.CURRENT_PASSWORD_WRONG);
    }
    const passwordHash = await this.passwords.hash(dto.newPassword);
    await this.events.transaction((tx) => this.lifecycle.setPassword(tx, userId, passwordHash, { via: 'change', sessionId }));
  }

  // ---- helpers -------------------------------------------------------------------------------

  /**
   * Resends for unknown or verified addresses send nothing but answer like a pending account's:
   * the first at once, then a 60 s wait. Kept in memory (bounded); losing it on restart is harmless.
   */
  private readonly phantomResends = new Map<string, number>();

  /**
   * With REDIS_URL the phantom cool-down is kept in Redis (key: an HMAC of the address, 60 s), so
   * asking another instance does not tell unknown addresses from pending ones; undefined while
   * Redis is not there (the in-process map answers then).
   */
  private async sharedPhantomCooldown(email: string): Promise<number | undefined> {
    const client = this.redis.client;
    if (!client || client.status !== 'ready') return undefined;
    const key = `inkwell:phantom-resend:${createHmac('sha256', deriveKey(this.config.jwtSecret, 'phantom-resend-keys')).update(email).digest('hex')}`;
    try {
      if ((await client.set(key, '1', 'PX', RESEND_COOLDOWN_SECONDS * 1000, 'NX')) === 'OK') return 0;
      const left = await client.pttl(key);
      return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : 1;
    } catch {
      return undefined;
    }
  }

  private phantomCooldown(email: string, now: number): number {
    const last = this.phantomResends.get(email);
    if (last !== undefined) {
      const elapsed = (now - last) / 1000;
      if (elapsed < RESEND_COOLDOWN_SECONDS) return Math.max(1, Math.ceil(RESEND_COOLDOWN_SECONDS - elapsed));
    }
    if (this.phantomResends.size >= 10_000) {
      for (const [key, at] of this.phantomResends) if (now - at >= RESEND_COOLDOWN_SECONDS * 1000) this.phantomResends.delete(key);
      if (this.phantomResends.size >= 10_000) this.phantomResends.clear();
    }
    this.phantomResends.set(email, now);
    return 0;
  }

  private async tokenSet(issued: IssuedRefreshToken): Promise<TokenSet> {
    const payload: AccessTokenPayload = { sub: issued.userId, sid: issued.familyId };
    const accessToken = await this.jwt.signAsync(payload);
    const user = await this.usersService.getProfile(issued.userId);
    return {
      accessToken,
      refreshToken: issued.token,
      tokenType: 'Bearer',
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      user,
      refreshExpiresAt: issued.expiresAt,
    };
  }

  /** The reset link's origin: the caller's redirectUrl only when it is this site's own origin. */
  resetOrigin(redirectUrl: string | undefined): string {
    const own = new URL(this.config.publicUrl).origin;
    try {
      if (redirectUrl && new URL(redirectUrl).origin === own) return own;
    } catch {
      // not a URL: fall back to PUBLIC_URL
    }
    return this.config.publicUrl;
  }

  private newCode(): string {
    return randomInt(0, 1_000_000).toString().padStart(6, '0');
  }

  /** Codes are only 6 digits, so they are keyed with the server secret, not plainly hashed. */
  private hashCode(userId: number, code: string): string {
    return createHmac('sha256', this.config.jwtSecret).update(`${userId}:${code}`).digest('hex');
  }

  private sameHash(a: string, b: string): boolean {
    const x = Buffer.from(a, 'hex');
    const y = Buffer.from(b, 'hex');
    return x.length === y.length && timingSafeEqual(x, y);
  }

  private minutesFromNow(minutes: number): Date {
    return new Date(Date.now() + minutes * 60_000);
  }
}
