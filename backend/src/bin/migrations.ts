import 'reflect-metadata';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/env';
import { PROJECT_ROOT } from '../config/paths';
import { createDataSource, ensureDatabase } from '../database/data-source';
import { prepareDatabase } from '../database/data-version';
import { EmbeddedDatabase, startEmbeddedPostgres } from '../database/embedded-postgres';

/**
 * `generate <Name>`: diffs the entities against a fresh database with every committed migration
 * applied, and writes migrations/<13-digit-ts>-<Name>.ts (+ registers it in migrations/index.ts).
 * `run`: applies pending migrations to the configured database (DATABASE_URL or DATA_DIR's).
 */
async function withDatabase<T>(fresh: boolean, work: (url: string) => Promise<T>): Promise<T> {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  if (config.databaseUrl && !fresh) return work(config.databaseUrl);
  const dataDir = fresh ? mkdtempSync(join(tmpdir(), 'inkwell-migrations-')) : config.dataDir;
  if (fresh) chmodSync(dataDir, 0o755);
  let embedded: EmbeddedDatabase | undefined;
  try {
    embedded = await startEmbeddedPostgres(dataDir, (line) => process.stdout.write(`${line}\n`));
    return await work(await ensureDatabase(embedded.url, 'inkwell'));
  } finally {
    await embedded?.stop();
    if (fresh) rmSync(dataDir, { recursive: true, force: true });
  }
}

function indent(queries: { query: string; parameters?: unknown[] }[]): string {
  return queries
    .map(({ query, parameters }) => {
      const args = parameters?.length ? `, ${JSON.stringify(parameters)}` : '';
      return `    await queryRunner.query(\`${query.replace(/`/g, '\\`')}\`${args});`;
    })
    .join('\n');
}

async function generate(name: string): Promise<void> {
  if (!/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new Error('usage: npm run migration:generate -- VerbNoun (PascalCase, e.g. CreateUsers)');
  await withDatabase(true, async (url) => {
    const dataSource = createDataSource(url);
    await dataSource.initialize();
    try {
      await dataSource.runMigrations();
      const sql = await dataSource.driver.createSchemaBuilder().log();
      if (!sql.upQueries.length) {
        process.stdout.write('No changes: the entities match the migrations.\n');
        return;
      }
      const timestamp = Date.now();
      const className = `${name}${timestamp}`;
      const fileName = `${timestamp}-${name}`;
      const source = `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  public async up(queryRunner: QueryRunner): Promise<void> {
${indent(sql.upQueries)}
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
${indent([...sql.downQueries].reverse())}
  }
}
`;
      writeFileSync(join(PROJECT_ROOT, 'migrations', `${fileName}.ts`), source);
      const indexFile = join(PROJECT_ROOT, 'migrations', 'index.ts');
      const index = readFileSync(indexFile, 'utf8')
        .replace(/^(\/\*\*[\s\S]*?\*\/\n)?/, (header) => `${header}import { ${className} } from './${fileName}';\n`)
        .replace(/export const MIGRATIONS: Function\[\] = \[([\s\S]*?)\];/, (_all, list: string) => {
          const items = list
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean);
          return `export const MIGRATIONS: Function[] = [\n${[...items, className].map((item) => `  ${item},`).join('\n')}\n];`;
        });
      writeFileSync(indexFile, index);
      process.stdout.write(`Wrote migrations/${fileName}.ts: review its SQL before committing.\n`);
    } finally {
      await dataSource.destroy();
    }
  });
}

async function run(): Promise<void> {
  await withDatabase(false, async (url) => {
    const applied = await prepareDatabase(url);
    process.stdout.write(applied.length ? `Applied: ${applied.join(', ')}\n` : 'No pending migrations.\n');
  });
}

const [command, name] = process.argv.slice(2);
const task =
  command === 'generate'
    ? generate(name ?? '')
    : command === 'run'
      ? run()
      : Promise.reject(new Error('usage: migrations.ts generate <Name> | run'));
task.catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
