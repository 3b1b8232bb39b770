#!/usr/bin/env node
// Post-build step of `npm run build:frontend`: writes a brotli (.br) and a gzip (.gz) file beside
// every compressible file of the Astro client build (frontend/dist/client), so the server sends
// them as they are (backend/src/frontend/static-assets.ts) instead of compressing per request.
// Brotli at its best quality (11) and gzip level 9: the work is done once per build. A variant
// that is not smaller than its file is not written (the server then sends the file itself);
// .br/.gz files left from an earlier build without their file are removed.
// Usage: node scripts/precompress-assets.mjs [dir]  (default frontend/dist/client)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = resolve(process.argv[2] ?? join(ROOT, 'frontend', 'dist', 'client'));
/** Text formats; images and fonts (png, webp, woff2...) are compressed already. */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.html', '.json', '.map', '.txt', '.xml', '.webmanifest', '.ico']);
const VARIANTS = ['.br', '.gz'];

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

if (!existsSync(DIR)) {
  process.stderr.write(`precompress: ${DIR} does not exist (build the frontend first)\n`);
  process.exit(1);
}

let files = 0;
let before = 0;
let afterBr = 0;
let afterGz = 0;
for (const path of [...filesUnder(DIR)]) {
  const variant = VARIANTS.find((ext) => path.endsWith(ext));
  if (variant) {
    if (!existsSync(path.slice(0, -variant.length))) rmSync(path);
    continue;
  }
  if (!COMPRESSIBLE.has(extname(path).toLowerCase())) continue;
  const body = readFileSync(path);
  const text = extname(path).toLowerCase() !== '.ico';
  const br = brotliCompressSync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_MODE]: text ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gz = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
  for (const [ext, compressed] of [
    ['.br', br],
    ['.gz', gz],
  ]) {
    if (compressed.length < body.length) writeFileSync(`${path}${ext}`, compressed);
    else rmSync(`${path}${ext}`, { force: true });
  }
  files += 1;
  before += body.length;
  afterBr += Math.min(br.length, body.length);
  afterGz += Math.min(gz.length, body.length);
}
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
process.stdout.write(
  `precompress: ${files} files in ${DIR.startsWith(`${ROOT}/`) ? relative(ROOT, DIR) : DIR}: ${kb(before)} -> br ${kb(afterBr)}, gzip ${kb(afterGz)}\n`,
);
