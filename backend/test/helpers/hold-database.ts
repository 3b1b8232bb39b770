// A stand-in for an Inkwell that owns DATA_DIR: starts the embedded PostgreSQL in argv[2], prints
// `ready <postmaster pid>` and waits (the fault tests kill it with -9 to leave an orphan).
import { startEmbeddedPostgres } from '../../src/database/embedded-postgres';

startEmbeddedPostgres(process.argv[2], () => undefined).then(
  (database) => {
    process.stdout.write(`ready ${database.postmaster.pid}\n`);
    setInterval(() => undefined, 60_000);
  },
  (error: unknown) => {
    process.stdout.write(`failed ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
