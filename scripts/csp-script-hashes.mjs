#!/usr/bin/env node
// After `astro build`: writes frontend/dist/server/csp-script-hashes.json, the SHA-256 hashes of
// every inline script a page can carry, for the server's Content-Security-Policy (script-src
// without 'unsafe-inline'; backend/src/common/security-headers.ts reads the file at start-up):
// - Astro's small processed scripts it inlines (`<script type="module">…`, the manifest's inlinedScripts),
// - the hydration directives' scripts (client:load, client:idle, …: the manifest's clientDirectives),
// - the <astro-island> runtime (production and development builds),
// - our own inline script, the no-flash theme script (frontend/src/lib/theme-script.mjs).
// and the hashes of the inline <style> elements, for style-src (without 'unsafe-inline'):
// - the <astro-island> runtime's one rule (astro/runtime/server/astro-island-styles.js); the built
//   CSS is always linked as files (astro.config.mjs: inlineStylesheets 'never').
// Hashes come from the build's own code, never from rendered pages, so injected markup cannot
// earn one. Taken from where Astro renders them (astro/dist/runtime/server/scripts.js, render/script.js).
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERVER_DIST = join(ROOT, 'frontend', 'dist', 'server');
const HASHES_FILE = join(SERVER_DIST, 'csp-script-hashes.json');

const sha256 = (text) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

const manifestFile = readdirSync(SERVER_DIST).find((name) => /^manifest_.*\.mjs$/.test(name));
if (!manifestFile) throw new Error(`csp-script-hashes: no manifest_*.mjs in ${SERVER_DIST} (run astro build first)`);
const { manifest } = await import(pathToFileURL(join(SERVER_DIST, manifestFile)).href);
const { default: island } = await import('astro/runtime/server/astro-island.prebuilt.js');
const { default: islandDev } = await import('astro/runtime/server/astro-island.prebuilt-dev.js');
const { ISLAND_STYLES } = await import('astro/runtime/server/astro-island-styles.js');
const { THEME_SCRIPT } = await import(pathToFileURL(join(ROOT, 'frontend', 'src', 'lib', 'theme-script.mjs')).href);

const scripts = [...manifest.inlinedScripts.values(), ...manifest.clientDirectives.values(), island, islandDev, THEME_SCRIPT].filter(
  Boolean,
);
const scriptHashes = [...new Set(scripts.map(sha256))].sort();
const styleHashes = [ISLAND_STYLES].map(sha256);
writeFileSync(HASHES_FILE, `${JSON.stringify({ scriptHashes, styleHashes }, null, 2)}\n`);
console.log(`csp-script-hashes: ${scriptHashes.length} inline script hashes, ${styleHashes.length} inline style hash → ${HASHES_FILE}`);
