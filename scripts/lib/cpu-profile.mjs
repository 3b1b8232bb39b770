// CPU profiles of the server per bench row (BENCH_PROFILE_DIR): where a request's time goes, as
// the frames with the most self time and the libraries they belong to. The bench starts the server
// with --inspect on a loopback port and drives V8's sampling profiler over the inspector protocol
// (a WebSocket: Node 22 or later), around one extra run of each row after its measured pairs, so
// the profiler's own cost never enters the figures.

/** 'Debugger listening on ws://127.0.0.1:9229/<id>' in the server's output: the inspector's address. */
export function inspectorUrl(output) {
  return /Debugger listening on (ws:\/\/\S+)/.exec(output)?.[1];
}

/** A connection to a Node inspector that starts and stops the sampling profiler. */
export async function connectProfiler(url, samplingIntervalUs = 200) {
  if (typeof WebSocket !== 'function') throw new Error('BENCH_PROFILE_DIR needs Node 22 or later (a global WebSocket)');
  const socket = new WebSocket(url);
  await new Promise((opened, failed) => {
    socket.addEventListener('open', opened, { once: true });
    socket.addEventListener('error', () => failed(new Error(`inspector ${url}: connection failed`)), { once: true });
  });
  let lastId = 0;
  const waiting = new Map();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    if (message.id === undefined) return;
    const settle = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) settle?.reject(new Error(`${message.error.message} (${message.error.code})`));
    else settle?.resolve(message.result);
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      lastId += 1;
      waiting.set(lastId, { resolve, reject });
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: samplingIntervalUs });
  return {
    start: () => send('Profiler.start'),
    /** The profile (.cpuprofile JSON) since start. */
    stop: async () => (await send('Profiler.stop')).profile,
    close: () => socket.close(),
  };
}

/** Where a frame's code lives, by its script URL: the library or part of the app it belongs to. */
const PLACES = [
  [/node_modules\/(express|router|body-parser|finalhandler|send|serve-static|on-finished|qs|path-to-regexp)\//, 'Express'],
  [/node_modules\/@nestjs\//, 'Nest'],
  [/node_modules\/rxjs\//, 'rxjs'],
  [/node_modules\/(pino|pino-http|pino-std-serializers|sonic-boom|fast-redact|thread-stream)\//, 'pino'],
  [/node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-[a-z]+)\//, 'pg'],
  [/node_modules\/typeorm\//, 'TypeORM'],
  [/node_modules\/(passport|passport-jwt|jsonwebtoken|jws|jwa)\//, 'passport/JWT'],
  [/node_modules\/(class-validator|class-transformer)\//, 'class-validator'],
  [/node_modules\/(astro|@astrojs)\//, 'Astro'],
  [/node_modules\/(react|react-dom)\//, 'React'],
  [/node_modules\/(cookie|cookie-parser|compression|helmet)\//, 'HTTP middleware'],
  [/node_modules\//, 'other libraries'],
  // The page build bundles Astro's runtime into chunks of its own.
  [/frontend\/dist\/server\/chunks\/astro\//, 'Astro'],
  [/frontend\/dist\//, 'Inkwell pages'],
  [/dist\/backend\//, 'Inkwell API'],
  [/^node:|^internal\//, 'Node'],
];

/** The library a profile node belongs to ('(garbage collector)', '(program)', '(idle)' as V8 names them). */
export function placeOf(callFrame) {
  const { url, functionName } = callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : 'native';
  return PLACES.find(([pattern]) => pattern.test(url))?.[1] ?? 'Inkwell API';
}

/** A script's address without the checkout's path: 'express/lib/router/index.js', 'dist/backend/src/…'. */
const shortUrl = (url) => {
  const path = url.replace(/^file:\/\//, '');
  const library = path.lastIndexOf('/node_modules/');
  if (library >= 0) return path.slice(library + '/node_modules/'.length);
  return path.replace(/^.*\/frontend\/dist\//, 'frontend/dist/').replace(/^.*\/dist\/backend\//, 'dist/backend/');
};

/**
 * The busy samples of a profile (idle ones left out): the share of self time per place and the
 * `top` frames with the most self time, as [{ name, share }], shares of the busy samples.
 */
export function summarizeProfile(profile, top = 10) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  let busy = 0;
  const places = new Map();
  const frames = new Map();
  for (const [id, count] of hits) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') continue;
    busy += count;
    const place = placeOf(callFrame);
    places.set(place, (places.get(place) ?? 0) + count);
    const name = callFrame.url
      ? `${callFrame.functionName || '(anonymous)'} ${shortUrl(callFrame.url)}:${callFrame.lineNumber + 1}`
      : callFrame.functionName || '(native)';
    frames.set(name, (frames.get(name) ?? 0) + count);
  }
  const ranked = (map) => [...map].sort((a, b) => b[1] - a[1]).map(([name, count]) => ({ name, share: busy ? count / busy : 0 }));
  return { busySamples: busy, places: ranked(places), frames: ranked(frames).slice(0, top) };
}

const percent = (share) => `${(share * 100).toFixed(1)} %`;

/** One line of places ('Nest 21.0 %, Express 9.3 %, …') for a table cell. */
export function placesLine(summary, count = 6) {
  return summary.places
    .slice(0, count)
    .map((place) => `${place.name} ${percent(place.share)}`)
    .join(', ');
}

/** The top frames as Markdown list lines. */
export function framesLines(summary, count = 8) {
  return summary.frames.slice(0, count).map((frame) => `  - ${percent(frame.share)} \`${frame.name}\``);
}

// `node scripts/lib/cpu-profile.mjs <file.cpuprofile>...`: the same summary for profiles written earlier.
// `node scripts/lib/cpu-profile.mjs --compare <dir> <label-a> <label-b>`: each row profiled under both
// labels (BENCH_PROFILE_LABEL), side by side in Markdown.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { readFileSync, readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const read = (file) => summarizeProfile(JSON.parse(readFileSync(file, 'utf8')));
  if (process.argv[2] === '--compare') {
    const [dir, a, b] = process.argv.slice(3);
    const rows = readdirSync(dir)
      .filter((name) => name.startsWith(`${a}-`))
      .map((name) => name.slice(a.length + 1))
      .sort();
    for (const row of rows) {
      let other;
      try {
        other = read(join(dir, `${b}-${row}`));
      } catch {
        continue;
      }
      const first = read(join(dir, `${a}-${row}`));
      process.stdout.write(
        `\n#### ${row.replace(/\.cpuprofile$/, '')}\n\n- **${a}** (${first.busySamples} busy samples): ${placesLine(first)}\n${framesLines(first, 6).join('\n')}\n`,
      );
      process.stdout.write(`- **${b}** (${other.busySamples} busy samples): ${placesLine(other)}\n${framesLines(other, 6).join('\n')}\n`);
    }
  } else {
    for (const file of process.argv.slice(2)) {
      const summary = read(file);
      process.stdout.write(
        `\n- ${file} (${summary.busySamples} busy samples): ${placesLine(summary)}\n${framesLines(summary).join('\n')}\n`,
      );
    }
  }
}
