import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './paths';

/** The version in package.json: the Inkwell release this code is (semver, CHANGELOG.md). */
export function inkwellVersion(): string {
  return (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Compares two semantic versions (x.y.z; a pre-release sorts before its release): <0, 0 or >0. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.split('-', 2);
    return { parts: core.split('.').map((n) => Number(n) || 0), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) if ((x.parts[i] ?? 0) !== (y.parts[i] ?? 0)) return (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
