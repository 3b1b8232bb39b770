import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from 'pg';
import { ARCHIVE_PREFIX } from './backup-format';

/**
 * Table `backup_runs`: each backup's start, end, size and result, written by the server's schedule
 * and by `npm run backup` alike (/admin/settings shows the last). Through a connection of its own,
 * so a CLI without the app writes it too; a database older than the table is left alone.
 */
export interface BackupRun {
  id: number;
  startedAt: Date;
  finishedAt: Date | null;
  trigger: 'schedule' | 'command';
  ok: boolean | null;
  file: string | null;
  bytes: number | null;
  error: string | null;
}

async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T | undefined> {
  const client = new Client({ connectionString: url, application_name: 'inkwell-backup-runs' });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string | null }>(`SELECT to_regclass('public.backup_runs') AS t`);
    return rows[0].t ? await work(client) : undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function startRun(url: string, trigger: BackupRun['trigger'], startedAt: Date): Promise<number | undefined> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ id: number }>(`INSERT INTO backup_runs (started_at, trigger) VALUES ($1, $2) RETURNING id`, [
      startedAt,
      trigger,
    ]);
    return rows[0].id;
  });
}

export async function finishRun(
  url: string,
  id: number | undefined,
  result: { file: string; bytes: number } | { error: string },
): Promise<void> {
  if (id === undefined) return;
  await withClient(url, (client) =>
    'error' in result
      ? client.query(`UPDATE backup_runs SET finished_at = now(), ok = false, error = $2 WHERE id = $1`, [id, result.error.slice(0, 2000)])
      : client.query(`UPDATE backup_runs SET finished_at = now(), ok = true, file = $2, bytes = $3 WHERE id = $1`, [
          id,
          result.file,
          result.bytes,
        ]),
  );
}

/** Keeps the newest `keep` complete archives in `dir` (by the time each was finished); answers the names removed. */
export async function pruneArchives(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.startsWith(ARCHIVE_PREFIX) && name.endsWith('.zip'));
  const archives = (await Promise.all(names.map(async (name) => ({ name, at: (await stat(join(dir, name))).mtimeMs }))))
    .sort((a, b) => a.at - b.at || a.name.localeCompare(b.name))
    .map((archive) => archive.name);
  const old = archives.slice(0, Math.max(0, archives.length - keep));
  for (const name of old) await rm(join(dir, name), { force: true });
  return old;
}
