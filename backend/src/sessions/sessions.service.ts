import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, EntityManager, IsNull, LessThan, MoreThan, Not, Repository } from 'typeorm';
import type { AuthUser, CallerRead } from '../auth/auth-user';
import { APP_CONFIG, AppConfig } from '../config/env';
import { RefreshSession } from './entities/refresh-session.entity';
import { NewDeviceAlerts } from './new-device-alerts';
import { SecretBox } from '../common/secret-box';
import { callerOf, keepsAccess, readCaller } from '../auth/caller-query';
import type { ClientInfo } from './client-device';

/** Refresh lifetimes (docs/requirements.md#decision-tokens): 30 days with remember-me (the label users see), else 480 minutes. */
export const REMEMBER_ME_TTL_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_TTL_SECONDS = 480 * 60;

/** A rotated token presented again within this time is a concurrent refresh, not a theft. */
export const CONCURRENT_REFRESH_GRACE_MS = 10_000;
/** How often sealed successors whose grace is over are wiped. */
const GRACE_SWEEP_INTERVAL_MS = 60_000;

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids PostgreSQL can compare: a UUID session family and a 32-bit user id (only a forged token carries others). */
function isWellFormedSession(familyId: string, userId: number): boolean {
  return SESSION_ID.test(String(familyId)) && Number.isInteger(userId) && userId >= 1 && userId <= 2147483647;
}

export function refreshTtlSeconds(rememberMe: boolean): number {
  return rememberMe ? REMEMBER_ME_TTL_SECONDS : SESSION_TTL_SECONDS;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

// Declared beside the device rules, so that new-device-alerts.ts imports nothing of this file (one-way: this file calls it).
export type { ClientInfo } from './client-device';

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  userId: number;
  rememberMe: boolean;
  expiresAt: Date;
}

export type RotateResult =
  { ok: true; issued: IssuedRefreshToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' | 'successor-unavailable' };

/**
 * Opaque refresh tokens (256 random bits, stored as SHA-256), grouped in families: one family per
 * login, also the `sid` of its access tokens. Rotation is single use: a rotated token presented
 * again within 10 s (concurrent tabs) gets the very successor the first use got; later, it
 * revokes its whole family: someone holds a copy.
 *
 * The state that makes the grace idempotent is in the database, not in this process: the row
 * lock serialises rotations of one token, and the successor's plaintext is kept on the rotated
 * row, sealed, for the grace window only. So it holds across instances sharing the database.
 */
@Injectable()
export class SessionsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Sessions');
  private readonly successors: SecretBox;
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    @InjectRepository(RefreshSession) private readonly sessions: Repository<RefreshSession>,
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly deviceAlerts: NewDeviceAlerts,
  ) {
    this.successors = new SecretBox(config.jwtSecret, 'refresh-successor');
  }

  onModuleInit(): void {
    this.sweepTimer = setInterval(() => void this.sweepGraceState(), GRACE_SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  onModuleDestroy(): void {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /**
   * Starts a session family for a sign-in, whatever proved it (a password, or a second factor after
   * it). In the same transaction the device is remembered and, when it is new to the user, the
   * new-sign-in e-mail is enqueued (new-device-alerts.ts): the alert exists exactly when the session does.
   */
  async start(userId: number, rememberMe: boolean, client: ClientInfo): Promise<IssuedRefreshToken> {
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(RefreshSession);
      // Housekeeping: the user's rows that expired a day ago or more serve no purpose any more.
      await repo.delete({ userId, expiresAt: LessThan(new Date(Date.now() - 24 * 60 * 60 * 1000)) });
      const issued = await this.issue(repo, { userId, familyId: randomUUID(), parentId: null, rememberMe, client });
      await this.deviceAlerts.sessionStarted(manager, userId, issued.familyId, client, new Date());
      return issued;
    });
  }

  /**
   * Exchanges a refresh token for a new one of the same family. Uses of one token are serialised
   * by the row lock: the first rotates it; the others, within the grace window, get the same
   * successor; after the window, a use revokes the family.
   */
  async rotate(token: string, client: ClientInfo): Promise<RotateResult> {
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(RefreshSession);
      const current = await repo.findOne({ where: { tokenHash: sha256(token) }, lock: { mode: 'pessimistic_write' } });
      if (!current) return { ok: false, reason: 'unknown' } as const;
      if (current.revokedAt) return { ok: false, reason: 'revoked' } as const;
      const now = new Date();
      if (current.expiresAt <= now) return { ok: false, reason: 'expired' } as const;
      if (current.rotatedAt) {
        if (now.getTime() - current.rotatedAt.getTime() > CONCURRENT_REFRESH_GRACE_MS) {
          await repo.update({ familyId: current.familyId, revokedAt: IsNull() }, { revokedAt: now, successorToken: null });
          return { ok: false, reason: 'reused' } as const;
        }
        // Requests that left together with the same token (tabs restored at once, a page render
        // and an island) are not theft: they get the successor the first of them got.
        const successor = await this.successorOf(repo, current);
        return successor ? ({ ok: true, issued: successor } as const) : ({ ok: false, reason: 'successor-unavailable' } as const);
      }
      const issued = await this.issue(repo, {
        userId: current.userId,
        familyId: current.familyId,
        parentId: current.id,
        rememberMe: current.rememberMe,
        client,
      });
      await repo.update(
        { id: current.id },
        { rotatedAt: now, lastUsedAt: now, successorToken: this.successors.seal(issued.token, current.id) },
      );
      return { ok: true, issued } as const;
    });
  }

  /** The live successor a rotated row was exchanged for, from its sealed copy. */
  private async successorOf(repo: Repository<RefreshSession>, rotated: RefreshSession): Promise<IssuedRefreshToken | null> {
    // Missing when the row was rotated before successors were kept, or the window's state was
    // wiped; unreadable when JWT_SECRET changed in between. Either way there is none to give.
    const token = rotated.successorToken ? this.successors.open(rotated.successorToken, rotated.id) : null;
    if (!token) return null;
    const row = await repo.findOne({ where: { tokenHash: sha256(token), familyId: rotated.familyId, parentId: rotated.id } });
    if (!row || row.revokedAt || row.expiresAt <= new Date()) return null;
    return { token, familyId: row.familyId, userId: row.userId, rememberMe: row.rememberMe, expiresAt: row.expiresAt };
  }

  /**
   * Wipes sealed successors whose grace window is over (every minute; the code never reads them
   * after the window anyway). Each instance may run it: it is one idempotent UPDATE.
   */
  async sweepGraceState(): Promise<void> {
    if (!this.dataSource.isInitialized) return;
    try {
      await this.sessions
        .createQueryBuilder()
        .update()
        .set({ successorToken: null })
        .where('successor_token IS NOT NULL AND rotated_at < :before', { before: new Date(Date.now() - CONCURRENT_REFRESH_GRACE_MS) })
        .execute();
    } catch (error) {
      this.logger.warn(`could not wipe expired refresh grace state: ${String(error)}`);
    }
  }

  /** Ends the session a refresh token belongs to (unknown tokens are ignored). */
  async revokeByToken(token: string): Promise<void> {
    const row = await this.sessions.findOne({ where: { tokenHash: sha256(token) }, select: { id: true, familyId: true } });
    if (row) await this.revokeFamily(row.familyId);
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.sessions.update({ familyId, revokedAt: IsNull() }, { revokedAt: new Date(), successorToken: null });
  }

  /**
   * Ends every session of a user, except `keepFamilyId` when given. With `manager`, inside the
   * caller's transaction (an admin's ban ends the sessions in the same commit).
   */
  async revokeAllOfUser(userId: number, keepFamilyId?: string, manager?: EntityManager): Promise<void> {
    const where = keepFamilyId ? { userId, revokedAt: IsNull(), familyId: Not(keepFamilyId) } : { userId, revokedAt: IsNull() };
    const repo = manager ? manager.getRepository(RefreshSession) : this.sessions;
    await repo.update(where, { revokedAt: new Date(), successorToken: null });
  }

  /**
   * Whether access tokens of this session family may still be used. Ids PostgreSQL could not even
   * compare (not a UUID, not a 32-bit id: only a forged token carries them) name no session.
   */
  isLive(familyId: string, userId: number): Promise<boolean> {
    if (!isWellFormedSession(familyId, userId)) return Promise.resolve(false);
    return this.sessions.exists({ where: { familyId, userId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) } });
  }

  /**
   * The caller behind an access token, in one query: the user with their role names and whether
   * the token's session is live ('no-session': revoked, expired, unknown or not this user's).
   * Only verified, ACTIVE accounts keep access ('locked'). Run on every authenticated request,
   * so one round trip and no entity hydration (the signed-in floor went from 439 to 608 req/s).
   * `reads`: the route's `alongside` values, read in the same query (`alongside[key]`); only for a
   * caller who keeps access.
   */
  async resolveCaller(familyId: string, userId: number, reads: readonly CallerRead[] = []): Promise<AuthUser | 'no-session' | 'locked'> {
    if (!isWellFormedSession(familyId, userId)) return 'no-session';
    const row = await readCaller<{ live: boolean }>(
      this.dataSource,
      {
        name: 'inkwell_caller',
        columns: `EXISTS (SELECT 1 FROM refresh_sessions s
                       WHERE s.family_id = $2 AND s.user_id = u.id AND s.revoked_at IS NULL AND s.expires_at > now()) AS live`,
        from: 'FROM users u WHERE u.id = $1',
      },
      [userId, familyId],
      reads,
    );
    if (!row?.live) return 'no-session';
    if (!keepsAccess(row)) return 'locked';
    return { ...callerOf(row, reads), sessionId: familyId };
  }

  private async issue(
    repo: Repository<RefreshSession>,
    input: { userId: number; familyId: string; parentId: string | null; rememberMe: boolean; client: ClientInfo },
  ): Promise<IssuedRefreshToken> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + refreshTtlSeconds(input.rememberMe) * 1000);
    await repo.insert({
      id: randomUUID(),
      userId: input.userId,
      tokenHash: sha256(token),
      familyId: input.familyId,
      parentId: input.parentId,
      rememberMe: input.rememberMe,
      expiresAt,
      lastUsedAt: null,
      userAgent: input.client.userAgent?.slice(0, 255) ?? null,
      ip: input.client.ip?.slice(0, 64) ?? null,
    });
    return { token, familyId: input.familyId, userId: input.userId, rememberMe: input.rememberMe, expiresAt };
  }
}
