import type { EntityManager } from 'typeorm';

export interface ActiveMute {
  mutedUntil: Date | null;
  reason: string;
}

/** SQL: whether the user_mutes row `alias` is in force now (an expired mute no longer counts, so mutes end by themselves). */
export const muteInForce = (alias: string) => `(${alias}.muted_until IS NULL OR ${alias}.muted_until > now())`;

/** The user's mute in force now. */
export async function activeMute(manager: EntityManager, userId: number): Promise<ActiveMute | undefined> {
  const rows = (await manager.query(
    `SELECT m.muted_until AS "mutedUntil", m.reason FROM user_mutes m WHERE m.user_id = $1 AND ${muteInForce('m')}`,
    [userId],
  )) as ActiveMute[];
  return rows[0];
}
