import type { EntityManager } from 'typeorm';

export interface ActiveMute {
  mutedUntil: Date | null;
  reason: string;
}

/** The user's mute in force now (an expired one no longer counts, so mutes end by themselves). */
export async function activeMute(manager: EntityManager, userId: number): Promise<ActiveMute | undefined> {
  const rows = (await manager.query(
    `SELECT muted_until AS "mutedUntil", reason FROM user_mutes WHERE user_id = $1 AND (muted_until IS NULL OR muted_until > now())`,
    [userId],
  )) as ActiveMute[];
  return rows[0];
}
