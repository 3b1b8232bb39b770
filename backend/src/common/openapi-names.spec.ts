import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * Swagger names a schema after its class, so two classes with one name become one schema: the
 * second silently takes the first's place in openapi.json (it once typed the admin stats'
 * recentActivities as the activity chart's per-day series). Every class that documents API
 * fields must have a name of its own.
 */
const SOURCE_ROOT = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

describe('OpenAPI schema names', () => {
  it('no two exported classes with API fields share a name', () => {
    const documented = sourceFiles(SOURCE_ROOT).filter((file) => /@ApiProperty|ApiPropertyOptional/.test(readFileSync(file, 'utf8')));
    expect(documented.length).toBeGreaterThan(15);

    const owners = new Map<string, { value: unknown; file: string }>();
    const clashes: string[] = [];
    for (const file of documented) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- each module is read for its exports
      const exported = require(file) as Record<string, unknown>;
      for (const value of Object.values(exported)) {
        if (typeof value !== 'function' || !/^class\b/.test(Function.prototype.toString.call(value))) continue;
        const name = (value as { name: string }).name;
        const owner = owners.get(name);
        if (!owner) owners.set(name, { value, file });
        else if (owner.value !== value) clashes.push(`${name}: ${relative(SOURCE_ROOT, owner.file)} and ${relative(SOURCE_ROOT, file)}`);
      }
    }
    expect(owners.size).toBeGreaterThan(50);
    expect(clashes).toEqual([]);
  });
});
