import type { DataSource } from 'typeorm';
import type { KvKey, KvStore, KvStoreListEntry, KvStoreSetOptions } from '@fedify/fedify' with { 'resolution-mode': 'import' };

/** A key as stored: its parts as a JSON array (so a prefix is a string prefix of it without the closing bracket). */
const keyText = (key: KvKey): string => JSON.stringify(key);

/**
 * Fedify's key-value store (remote documents and keys it caches, inbox idempotence) over the
 * table `federation_kv`: one row per key, `expires_at` from the TTL; an expired row reads as
 * missing and is swept now and then.
 */
export class PgKvStore implements KvStore {
  private writes = 0;

  constructor(private readonly db: DataSource) {}

  async get<T = unknown>(key: KvKey): Promise<T | undefined> {
    const rows = (await this.db.query(`SELECT value FROM federation_kv WHERE key = $1 AND (expires_at IS NULL OR expires_at > now())`, [
      keyText(key),
    ])) as { value: { v: T } }[];
    return rows[0]?.value.v;
  }

  async set(key: KvKey, value: unknown, options?: KvStoreSetOptions): Promise<void> {
    const ttlMs = options?.ttl ? options.ttl.total('millisecond') : null;
    await this.db.query(
      `INSERT INTO federation_kv (key, value, expires_at) VALUES ($1, $2::jsonb, CASE WHEN $3::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $3::float8 / 1000) END)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
      [keyText(key), JSON.stringify({ v: value }), ttlMs],
    );
    if (++this.writes % 500 === 0) await this.db.query('DELETE FROM federation_kv WHERE expires_at < now()');
  }

  async delete(key: KvKey): Promise<void> {
    await this.db.query('DELETE FROM federation_kv WHERE key = $1', [keyText(key)]);
  }

  async cas(key: KvKey, expectedValue: unknown, newValue: unknown, options?: KvStoreSetOptions): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      const rows = (await manager.query(
        `SELECT value FROM federation_kv WHERE key = $1 AND (expires_at IS NULL OR expires_at > now()) FOR UPDATE`,
        [keyText(key)],
      )) as { value: { v: unknown } }[];
      const current = rows[0]?.value.v;
      if (JSON.stringify(current) !== JSON.stringify(expectedValue)) return false;
      const ttlMs = options?.ttl ? options.ttl.total('millisecond') : null;
      await manager.query(
        `INSERT INTO federation_kv (key, value, expires_at) VALUES ($1, $2::jsonb, CASE WHEN $3::float8 IS NULL THEN NULL ELSE now() + make_interval(secs => $3::float8 / 1000) END)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, expires_at = EXCLUDED.expires_at`,
        [keyText(key), JSON.stringify({ v: newValue }), ttlMs],
      );
      return true;
    });
  }

  async *list(prefix?: KvKey): AsyncIterable<KvStoreListEntry> {
    const start = prefix?.length ? keyText(prefix).slice(0, -1) : '[';
    const rows = (await this.db.query(
      `SELECT key, value FROM federation_kv WHERE starts_with(key, $1) AND (expires_at IS NULL OR expires_at > now()) ORDER BY key`,
      [start],
    )) as { key: string; value: { v: unknown } }[];
    for (const row of rows) {
      const key = JSON.parse(row.key) as string[];
      if (prefix && key.length < prefix.length) continue;
      yield { key: key as unknown as KvKey, value: row.value.v };
    }
  }
}
