import { ConflictException, ForbiddenException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import type { ApiTokenFacts } from '../events/domain-events';
import { DomainEvents, EventTransaction } from '../events/domain-events.service';
import { readUserFacts } from '../users/user-facts';
import { API_TOKEN_PATTERN, API_TOKEN_PREFIX, grantableScopes, type ApiTokenScope } from '../../../isomorphic/api-tokens';
import type { AuthUser, CallerRead } from '../auth/auth-user';
import { callerOf, keepsAccess, readCaller } from '../auth/caller-query';
import { ApiToken } from './entities/api-token.entity';
import { effectiveRole, RoleName } from '../users/roles';
import { sha256 } from '../sessions/sessions.service';
import { ApiTokensMessages } from './api-tokens.messages';
import type { ApiTokenCreatedDto, ApiTokenCreateDto, ApiTokenDto } from './dto/api-token.dto';
import { rememberTokenHash } from './token-tracker';

/** A user may hold this many tokens at once (a leaked script that mints tokens stops here). */
export const MAX_API_TOKENS_PER_USER = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

interface TokenRow {
  tokenId: number;
  tokenScopes: ApiTokenScope[];
  expired: boolean;
  touchDue: boolean;
  /** The account is waiting to be erased: disabled at once, for its tokens too. */
  deletionPending: boolean;
}

export type TokenCaller = AuthUser | 'unknown' | 'expired' | 'locked';

function toApiTokenDto(row: ApiToken): ApiTokenDto {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiTokenScope[],
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * Personal API tokens: `inkw_` + 32 random bytes (base64url), shown once; only
 * the SHA-256 is stored. Resolving one reads the token, its user and the user's profile in one
 * prepared statement (the same read as a session's: auth/caller-query.ts), so a ban, a revocation or
 * an expiry stops the token at its next request.
 */
@Injectable()
export class ApiTokensService {
  private readonly logger = new Logger('ApiTokens');

  constructor(
    @InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>,
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  /**
   * `user.api_token_created` or `user.api_token_revoked`, by the owner, in the change's transaction
   * (the audit log keeps those with the admin scope, by name: audit/account-security-audit.subscriber.ts).
   */
  private async recordToken(
    tx: EventTransaction,
    name: 'user.api_token_created' | 'user.api_token_revoked',
    user: AuthUser,
    apiToken: ApiTokenFacts,
  ): Promise<void> {
    const facts = await readUserFacts(tx.manager, user.id);
    if (!facts) throw new NotFoundException(ApiTokensMessages.NOT_FOUND);
    await tx.record({ name, actor: { id: user.id, name: user.fullName }, data: { ...facts, apiToken } });
  }

  async create(user: AuthUser, input: ApiTokenCreateDto): Promise<ApiTokenCreatedDto> {
    // The real roles, not a token's view of them: this route is session-only anyway.
    if (!input.scopes.every((scope) => grantableScopes(user.roles.includes(RoleName.ADMIN)).includes(scope))) {
      throw new ForbiddenException(ApiTokensMessages.ADMIN_SCOPE_FORBIDDEN);
    }
    const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const tokenHash = sha256(token);
    const row = await this.events.transaction(async (tx) => {
      const { manager } = tx;
      // The cap holds under simultaneous creates: the user's creates queue on one lock (held to the
      // commit), so each counts the tokens the ones before it inserted.
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('api-tokens-create'), $1)`, [user.id]);
      if ((await manager.countBy(ApiToken, { userId: user.id })) >= MAX_API_TOKENS_PER_USER) {
        throw new ConflictException(ApiTokensMessages.tooMany(MAX_API_TOKENS_PER_USER));
      }
      const saved = await manager.save(
        manager.create(ApiToken, {
          userId: user.id,
          name: input.name,
          tokenHash,
          scopes: [...input.scopes],
          expiresAt: input.expiresInDays === null ? null : new Date(Date.now() + input.expiresInDays * DAY_MS),
          lastUsedAt: null,
        }),
      );
      await this.recordToken(tx, 'user.api_token_created', user, {
        tokenId: saved.id,
        name: saved.name,
        scopes: [...saved.scopes],
        expiresAt: saved.expiresAt?.toISOString() ?? null,
      });
      return saved;
    });
    rememberTokenHash(tokenHash);
    return { ...toApiTokenDto(row), token };
  }

  /** The user's tokens, newest first (expired ones too, marked by their date, until revoked). */
  async list(userId: number): Promise<ApiTokenDto[]> {
    const rows = await this.tokens.find({ where: { userId }, order: { createdAt: 'DESC', id: 'DESC' } });
    return rows.map(toApiTokenDto);
  }

  /** Deletes the token: its next request is refused. Another user's token is 404, as a missing one. */
  async revoke(user: AuthUser, id: number): Promise<void> {
    await this.events.transaction(async (tx) => {
      const [removed] = (await tx.manager.query(
        `DELETE FROM api_tokens WHERE id = $1 AND user_id = $2 RETURNING name, scopes, expires_at`,
        [id, user.id],
      )) as [{ name: string; scopes: string[]; expires_at: Date | null }[], number];
      if (!removed.length) throw new NotFoundException(ApiTokensMessages.NOT_FOUND);
      const [token] = removed;
      await this.recordToken(tx, 'user.api_token_revoked', user, {
        tokenId: id,
        name: token.name,
        scopes: token.scopes,
        expiresAt: token.expires_at ? new Date(token.expires_at).toISOString() : null,
      });
    });
  }

  /**
   * The caller behind a token, in one query. Only verified, ACTIVE accounts keep access
   * ('locked'), as with sessions. Without the `admin` scope the caller acts without ADMIN.
   * `last_used_at` is written at most once a minute per token, not on every request.
   */
  async resolveCaller(token: string, reads: readonly CallerRead[] = []): Promise<TokenCaller> {
    if (!API_TOKEN_PATTERN.test(token)) return 'unknown';
    const tokenHash = sha256(token);
    const row = await readCaller<TokenRow>(
      this.dataSource,
      {
        name: 'inkwell_token_caller',
        columns: `t.id AS "tokenId", t.scopes AS "tokenScopes", (t.expires_at IS NOT NULL AND t.expires_at <= now()) AS expired,
              (t.last_used_at IS NULL OR t.last_used_at < now() - interval '1 minute') AS "touchDue",
              (u.deletion_due_at IS NOT NULL) AS "deletionPending"`,
        from: 'FROM api_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1',
      },
      [tokenHash],
      reads,
    );
    if (!row) return 'unknown';
    if (row.expired) return 'expired';
    if (!keepsAccess(row) || row.deletionPending) return 'locked';
    rememberTokenHash(tokenHash);
    if (row.touchDue) await this.touch(row.tokenId);
    const caller = callerOf(row, reads);
    const scopes = row.tokenScopes;
    const roles = scopes.includes('admin') ? caller.roles : caller.roles.filter((role) => role !== RoleName.ADMIN);
    return { ...caller, roles, role: effectiveRole(roles), apiToken: { id: row.tokenId, scopes } };
  }

  /** Records a use; the condition keeps concurrent requests (and instances) to one write a minute. */
  private async touch(id: number): Promise<void> {
    try {
      await this.dataSource.query(
        `UPDATE api_tokens SET last_used_at = now() WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
        [id],
      );
    } catch (error) {
      // A missed "last use" must not fail the request it describes.
      this.logger.warn(`could not record the use of API token ${id}: ${String(error)}`);
    }
  }
}
