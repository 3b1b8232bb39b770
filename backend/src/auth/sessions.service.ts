import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, IsNull, LessThan, MoreThan, Not, Repository } from 'typeorm';
import { RefreshSession } from './entities/refresh-session.entity';

/** Refresh lifetimes (DESIGN.md §4): 30 days with remember-me (the label users see), else 480 minutes. */
export const REMEMBER_ME_TTL_SECONDS = 30 * 24 * 60 * 60;
export const SESSION_TTL_SECONDS = 480 * 60;

/** A rotated token presented again within this time is a concurrent refresh, not a theft. */
export const CONCURRENT_REFRESH_GRACE_MS = 10_000;

export function refreshTtlSeconds(rememberMe: boolean): number {
  return rememberMe ? REMEMBER_ME_TTL_SECONDS : SESSION_TTL_SECONDS;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export interface IssuedRefreshToken {
  token: string;
  familyId: string;
  userId: number;
  rememberMe: boolean;
  expiresAt: Date;
}

export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

export type RotateResult = { ok: true; issued: IssuedRefreshToken } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'reused' };

/**
 * Opaque refresh tokens (256 random bits, stored as SHA-256), grouped in families: one family per
 * login, also the `sid` of its access tokens. Rotation is single use; a rotated token presented
 * again (after a 10 s grace for concurrent refreshes) revokes its whole family: someone holds a copy.
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectRepository(RefreshSession) private readonly sessions: Repository<RefreshSession>,
    private readonly dataSource: DataSource,
  ) {}

  /** Starts a session family for a login. */
  async start(userId: number, rememberMe: boolean, client: ClientInfo): Promise<IssuedRefreshToken> {
    // Housekeeping: the user's rows that expired a day ago or more serve no purpose any more.
    await this.sessions.delete({ userId, expiresAt: LessThan(new Date(Date.now() - 24 * 60 * 60 * 1000)) });
    return this.issue(this.sessions, { userId, familyId: randomUUID(), parentId: null, rememberMe, client });
  }

  /** Exchanges a refresh token for a new one of the same family. */
  async rotate(token: string, client: ClientInfo): Promise<RotateResult> {
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(RefreshSession);
      const current = await repo.findOne({ where: { tokenHash: sha256(token) }, lock: { mode: 'pessimistic_write' } });
      if (!current) return { ok: false, reason: 'unknown' } as const;
      if (current.revokedAt) return { ok: false, reason: 'revoked' } as const;
      const now = new Date();
      if (current.expiresAt <= now) return { ok: false, reason: 'expired' } as const;
      if (current.rotatedAt) {
        // Requests that left together with the same token (tabs restored at once, a page render and
        // an island) are not theft: within a few seconds they get a sibling token of the family.
        if (now.getTime() - current.rotatedAt.getTime() > CONCURRENT_REFRESH_GRACE_MS) {
          await repo.update({ familyId: current.familyId, revokedAt: IsNull() }, { revokedAt: now });
          return { ok: false, reason: 'reused' } as const;
        }
      } else {
        await repo.update({ id: current.id }, { rotatedAt: now, lastUsedAt: now });
      }
      const issued = await this.issue(repo, {
        userId: current.userId,
        familyId: current.familyId,
        parentId: current.id,
        rememberMe: current.rememberMe,
        client,
      });
      return { ok: true, issued } as const;
    });
  }

  /** Ends the session a refresh token belongs to (unknown tokens are ignored). */
  async revokeByToken(token: string): Promise<void> {
    const row = await this.sessions.findOne({ where: { tokenHash: sha256(token) }, select: { id: true, familyId: true } });
    if (row) await this.revokeFamily(row.familyId);
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.sessions.update({ familyId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Ends every session of a user, except `keepFamilyId` when given. */
  async revokeAllOfUser(userId: number, keepFamilyId?: string): Promise<void> {
    const where = keepFamilyId ? { userId, revokedAt: IsNull(), familyId: Not(keepFamilyId) } : { userId, revokedAt: IsNull() };
    await this.sessions.update(where, { revokedAt: new Date() });
  }

  /** Whether access tokens of this session family may still be used. */
  isLive(familyId: string, userId: number): Promise<boolean> {
    return this.sessions.exists({ where: { familyId, userId, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) } });
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
