import { Injectable, NotFoundException } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthUser } from '../auth/auth-user';
import { AccountSessionsMessages } from './account-sessions.messages';
import { approximatePlace, describeDevice } from './client-device';
import { AccountSessionDto, SessionsSignedOutDto, SignInAlertSettingsDto } from './dto/account-session.dto';
import { NewDeviceAlerts } from './new-device-alerts';

interface SessionRow {
  family_id: string;
  created_at: Date;
  last_used_at: Date;
  user_agent: string | null;
  ip: string | null;
}

/** A family is live while one of its rows is neither revoked nor expired (the session check's rule: SessionsService.isLive). */
const LIVE_FAMILY = 'bool_or(revoked_at IS NULL AND expires_at > now())';

export function toAccountSession(row: SessionRow, currentSessionId: string | undefined): AccountSessionDto {
  const device = describeDevice(row.user_agent);
  return {
    id: row.family_id,
    device: device.label,
    browser: device.browser,
    os: device.os,
    place: approximatePlace(row.ip),
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at.toISOString(),
    current: row.family_id === currentSessionId,
  };
}

/**
 * 'Where you're signed in': the caller's live sessions, signing one or all others
 * out, and the new-device alert's switch. A session is a refresh-token family; its device and
 * place are those of its newest token (the last sign-in or refresh). Signing out revokes the
 * family's rows, and the session guard reads them on every request, so the session's access
 * tokens are refused at once.
 */
@Injectable()
export class AccountSessionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly deviceAlerts: NewDeviceAlerts,
  ) {}

  /** Live sessions, most recently used first. */
  async list(caller: AuthUser): Promise<AccountSessionDto[]> {
    const rows: SessionRow[] = await this.dataSource.query(
      `SELECT family_id, min(created_at) AS created_at, max(GREATEST(created_at, COALESCE(last_used_at, created_at))) AS last_used_at,
              (array_agg(user_agent ORDER BY created_at DESC))[1] AS user_agent, (array_agg(ip ORDER BY created_at DESC))[1] AS ip
         FROM refresh_sessions WHERE user_id = $1
        GROUP BY family_id HAVING ${LIVE_FAMILY}
        ORDER BY last_used_at DESC, family_id`,
      [caller.id],
    );
    return rows.map((row) => toAccountSession(row, caller.sessionId));
  }

  /** Signs one of the caller's live sessions out (their own included); another user's, an ended or unknown one is 404. */
  async signOut(caller: AuthUser, sessionId: string): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const agents = await this.revoke(manager, caller.id, 'family_id = $2', [sessionId]);
      if (!agents.length) throw new NotFoundException(AccountSessionsMessages.NOT_FOUND);
      await this.deviceAlerts.forget(manager, caller.id, agents);
    });
  }

  /** Signs out every live session of the caller but the one making the call. */
  async signOutOthers(caller: AuthUser): Promise<SessionsSignedOutDto> {
    return this.dataSource.transaction(async (manager) => {
      // A caller without a session id (none in practice: every access token carries its sid) keeps nothing.
      const agents = await this.revoke(manager, caller.id, 'family_id IS DISTINCT FROM $2', [caller.sessionId ?? null]);
      await this.deviceAlerts.forget(manager, caller.id, agents);
      return { signedOut: agents.length };
    });
  }

  async alertSettings(caller: AuthUser): Promise<SignInAlertSettingsDto> {
    const [row]: { new_device_email: boolean }[] = await this.dataSource.query(
      `SELECT new_device_email FROM sign_in_alert_settings WHERE user_id = $1`,
      [caller.id],
    );
    return { newDeviceEmail: row?.new_device_email ?? true };
  }

  async updateAlertSettings(caller: AuthUser, newDeviceEmail: boolean): Promise<SignInAlertSettingsDto> {
    await this.dataSource.query(
      `INSERT INTO sign_in_alert_settings (user_id, new_device_email) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET new_device_email = EXCLUDED.new_device_email, updated_at = now()`,
      [caller.id, newDeviceEmail],
    );
    return { newDeviceEmail };
  }

  /**
   * Revokes the caller's live families matching `where` ($1 is the user, then `params`) and answers
   * the user agent of each family's newest row (one entry per family signed out).
   */
  private async revoke(manager: EntityManager, userId: number, where: string, params: unknown[]): Promise<(string | null)[]> {
    const families: { family_id: string; user_agent: string | null }[] = await manager.query(
      `SELECT family_id, (array_agg(user_agent ORDER BY created_at DESC))[1] AS user_agent
         FROM refresh_sessions WHERE user_id = $1 AND ${where}
        GROUP BY family_id HAVING ${LIVE_FAMILY}`,
      [userId, ...params],
    );
    if (!families.length) return [];
    const ids = families.map((family) => family.family_id);
    // Lock first, update in a statement of its own: a refresh that was rotating one of these tokens
    // has committed by then, and the update's fresh snapshot sees (and revokes) the token it issued.
    await manager.query(`SELECT 1 FROM refresh_sessions WHERE user_id = $1 AND family_id = ANY($2::uuid[]) FOR UPDATE`, [userId, ids]);
    await manager.query(
      `UPDATE refresh_sessions SET revoked_at = now(), successor_token = NULL WHERE user_id = $1 AND family_id = ANY($2::uuid[]) AND revoked_at IS NULL`,
      [userId, ids],
    );
    return families.map((family) => family.user_agent);
  }
}
