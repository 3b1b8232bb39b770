// Adds to package-lock.json the platform-specific optional packages (other OS/CPU builds of
// swc, esbuild, rollup, tailwind's oxide, sharp...) that npm leaves out when the registry it
// installed from does not carry them. Without them `npm ci` refuses the lock as out of sync.
// Each entry gets the os/cpu/libc its name encodes, so npm skips it on other machines without
// fetching it. Run after `npm install` changes dependencies: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'win32', 'linux', 'android', 'freebsd', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = [
  [/(arm64|aarch64)/, 'arm64'],
  [/(x64|x86_64|amd64)/, 'x64'],
  [/ia32/, 'ia32'],
  [/(^|-)arm(-|v7|$|eabi)/, 'arm'],
  [/ppc64/, 'ppc64'],
  [/s390x/, 's390x'],
  [/riscv64/, 'riscv64'],
  [/loong64/, 'loong64'],
  [/mips64el/, 'mips64el'],
  [/wasm32/, 'wasm32'],
];

function platformOf(name) {
  const base = name.split('/').pop();
  const entry = {};
  const os = OS.find((candidate) => base.includes(candidate));
  if (os) entry.os = [os];
  const cpu = CPU.find(([pattern]) => pattern.test(base));
  if (cpu) entry.cpu = [cpu[1]];
  if (os === 'linux' && /musl/.test(base)) entry.libc = ['musl'];
  else if (os === 'linux' && /gnu/.test(base)) entry.libc = ['glibc'];
  return entry;
}

/** Where Node would find `name` from the package at `location` (walking up node_modules). */
function resolves(location, name) {
  let dir = location;
  for (;;) {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
    const index = dir.lastIndexOf('node_modules/');
    dir = index <= 0 ? '' : dir.slice(0, index - 1);
  }
}

let added = 0;
const unknown = [];
for (const [location, meta] of Object.entries({ ...packages })) {
  for (const [name, spec] of Object.entries(meta.optionalDependencies ?? {})) {
    if (resolves(location, name)) continue;
    const version = String(spec).replace(/^[\^~=]/, '');
    if (!/^\d+\.\d+\.\d+/.test(version)) continue;
    const platform = platformOf(name);
    if (!platform.os && !platform.cpu) {
      unknown.push(name);
      continue;
    }
    const target = packages[`node_modules/${name}`] ? `${location}/node_modules/${name}` : `node_modules/${name}`;
    packages[target] = { version, ...(meta.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}

lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: added ${added} platform-specific optional packages`);
if (unknown.length) console.log(`left out (no platform in the name): ${unknown.join(', ')}`);
