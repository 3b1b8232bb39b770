import { rmSync } from 'node:fs';
import type { EmbeddedDatabase } from '../src/database/embedded-postgres';

export default async function globalTeardown(): Promise<void> {
  const state = globalThis as Record<string, unknown>;
  await (state.__INKWELL_PG__ as EmbeddedDatabase | undefined)?.stop();
  const dir = state.__INKWELL_TEST_DIR__ as string | undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
}
