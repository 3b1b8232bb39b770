import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root (where nest-cli.json is), from source (tests) or from dist alike. */
function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nest-cli.json'))) return dir;
    if (dir === dirname(dir)) return process.cwd();
  }
}

export const PROJECT_ROOT = findRoot(__dirname);
