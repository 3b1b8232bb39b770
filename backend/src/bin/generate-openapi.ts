import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, openApiDocumentOf } from '../app.factory';
import { stableStringify } from '../common/openapi';
import { loadConfig } from '../config/env';
import { PROJECT_ROOT } from '../config/paths';

/** Writes openapi.json from the app's module graph, without a database. */
export async function generateOpenApi(): Promise<string> {
  const config = loadConfig({ ...process.env, JWT_SECRET: 'openapi-generation-needs-no-real-secret!!', LOG_LEVEL: 'silent' });
  const app = await createApp({ config, databaseUrl: 'postgres://unused@127.0.0.1:1/unused', withoutDatabase: true });
  try {
    return stableStringify(openApiDocumentOf(app));
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  generateOpenApi()
    .then((json) => {
      writeFileSync(join(PROJECT_ROOT, 'openapi.json'), json);
      process.stdout.write('openapi.json written\n');
    })
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
