import assert from 'node:assert/strict';
import { test } from 'node:test';
import { framesLines, inspectorUrl, placeOf, placesLine, summarizeProfile } from './cpu-profile.mjs';

const frame = (functionName, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '0' });

test('the inspector address is read from the server output', () => {
  assert.equal(inspectorUrl('x\nDebugger listening on ws://127.0.0.1:40123/ab-cd\nFor help'), 'ws://127.0.0.1:40123/ab-cd');
  assert.equal(inspectorUrl('no inspector here'), undefined);
});

test('frames are placed by the library their script belongs to', () => {
  assert.equal(placeOf(frame('handle', 'file:///app/node_modules/express/lib/router/index.js')), 'Express');
  assert.equal(placeOf(frame('intercept', 'file:///app/node_modules/@nestjs/core/router/router-execution-context.js')), 'Nest');
  assert.equal(placeOf(frame('parse', 'file:///app/node_modules/pg-protocol/dist/parser.js')), 'pg');
  assert.equal(placeOf(frame('get', '/app/dist/backend/src/users/users.service.js')), 'Inkwell API');
  assert.equal(placeOf(frame('writev', 'node:internal/stream_base_commons')), 'Node');
  assert.equal(placeOf(frame('(garbage collector)')), '(garbage collector)');
  assert.equal(placeOf(frame('render', 'file:///app/frontend/dist/server/chunks/astro/server_X.mjs')), 'Astro');
  assert.equal(placeOf(frame('page', 'file:///app/frontend/dist/server/pages/dashboard.astro.mjs')), 'Inkwell pages');
});

test('a summary counts self time over busy samples only, by place and by frame', () => {
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('handle', 'file:///a/node_modules/express/lib/router/index.js', 41) },
      { id: 4, callFrame: frame('(garbage collector)') },
      { id: 5, callFrame: frame('find', '/a/dist/backend/src/x.js', 9) },
      { id: 6, callFrame: frame('match', 'file:///a/node_modules/path-to-regexp/dist/index.js', 232) },
    ],
    samples: [2, 2, 2, 2, 3, 3, 3, 3, 4, 5, 5, 6],
  };
  const summary = summarizeProfile(profile);
  assert.equal(summary.busySamples, 8);
  assert.deepEqual(
    summary.places.map((place) => [place.name, Number(place.share.toFixed(3))]),
    [
      ['Express', 0.625],
      ['Inkwell API', 0.25],
      ['(garbage collector)', 0.125],
    ],
  );
  assert.equal(summary.frames[0].name, 'handle express/lib/router/index.js:42');
  assert.equal(placesLine(summary), 'Express 62.5 %, Inkwell API 25.0 %, (garbage collector) 12.5 %');
  assert.equal(summary.frames.find((f) => f.name.startsWith('match')).name, 'match path-to-regexp/dist/index.js:233');
  assert.equal(framesLines(summary, 1)[0], '  - 50.0 % `handle express/lib/router/index.js:42`');
  assert.equal(summary.frames[1].name, 'find dist/backend/src/x.js:10');
});
