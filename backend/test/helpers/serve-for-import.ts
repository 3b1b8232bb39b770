// The API as `npm start` runs it (the parent gives the same heap cap), on DATABASE_URL with DATA_DIR
// argv[2] and the import's job polled every second, plus one admin written straight to the
// database. Prints `ready <port> <admin access token>`; the import memory test uploads to it and
// reads this process's peak memory (VmHWM) from /proc.
import 'reflect-metadata';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { loadConfig } from '../../src/config/env';

async function main(): Promise<void> {
  const config = loadConfig({
    DATA_DIR: process.argv[2],
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    THROTTLE_DISABLED: '1',
    JOB_POLL_SECONDS: '1',
  });
  const app = await createApp({ config, databaseUrl: process.env.DATABASE_URL! });
  await app.listen(0, '127.0.0.1');
  const db = app.get(DataSource);
  const [{ id }] = (await db.query(
    `INSERT INTO users (full_name, email, password_hash, status, is_verified, email_verified_at) VALUES ('Import Admin', $1, '!', 'ACTIVE', true, now()) RETURNING id`,
    [`admin-${Date.now()}@test.inkwell.test`],
  )) as { id: number }[];
  await db.query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE name = 'ADMIN'`, [id]);
  const sid = randomUUID();
  await db.query(
    `INSERT INTO refresh_sessions (id, user_id, token_hash, family_id, expires_at) VALUES ($1, $2, $3, $1, now() + interval '1 day')`,
    [sid, id, randomUUID().replace(/-/g, '').padEnd(64, '0')],
  );
  const token = await app.get(JwtService, { strict: false }).signAsync({ sub: id, sid });
  process.stdout.write(`ready ${((app.getHttpServer() as Server).address() as { port: number }).port} ${token}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`failed ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
