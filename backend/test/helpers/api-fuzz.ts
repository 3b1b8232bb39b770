/**
 * Property-based fuzzing of every operation of the app's OpenAPI document (docs/architecture.md#tests-and-measurements), shared
 * by `backend/test/fuzz.e2e-spec.ts` (a few hundred cases in `npm test`) and `npm run fuzz`
 * (scripts/fuzz.mjs, thousands). For each operation and each caller (anonymous, USER, AUTHOR,
 * ADMIN) fast-check draws hostile requests: path, query and JSON body values of the wrong type,
 * huge, odd Unicode, NUL, lone surrogates, numbers at the edges, SQL and path-traversal text;
 * bodies that are arrays, null, strings, deeply nested or not JSON at all; tampered, forged and
 * malformed tokens by header and cookie; random bytes as uploaded files. Every answer must be the
 * envelope with its status (never 5xx) and must not show a stack trace, SQL or a file path.
 *
 * Failures are collected rather than shrunk, so one long run lists every distinct bug, each with
 * the request that reproduces it (method, URL, caller, body) and a curl line.
 */
import { JwtService } from '@nestjs/jwt';
import { STATUS_CODES } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import fc from 'fast-check';
import bcrypt from 'bcrypt';
import sharp from 'sharp';
import type { Response } from 'supertest';
import { DataSource } from 'typeorm';
import { openApiDocumentOf } from '../../src/app.factory';
import { RoleName } from '../../src/users/roles';
import type { TestApp } from './app';
import { createUser, TestUser } from './users';

export type Caller = 'anonymous' | 'USER' | 'AUTHOR' | 'ADMIN';
export const CALLERS: Caller[] = ['anonymous', 'USER', 'AUTHOR', 'ADMIN'];

type Schema = Record<string, any>;

export interface Operation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  parameters: { name: string; in: string; required?: boolean; schema?: Schema }[];
  /** The request body's media types and schemas. */
  body: Record<string, Schema> | null;
  /** Documented statuses and their media types (none: no body, e.g. 204). */
  responses: Record<string, string[]>;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenAPIObject): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
      const op = (item as Record<string, any>)[method];
      if (!op) continue;
      const content = op.requestBody?.content as Record<string, { schema: Schema }> | undefined;
      operations.push({
        operationId: op.operationId,
        method,
        path,
        parameters: op.parameters ?? [],
        body: content ? Object.fromEntries(Object.entries(content).map(([type, media]) => [type, media.schema])) : null,
        responses: Object.fromEntries(
          Object.entries(op.responses as Record<string, { content?: object }>).map(([s, r]) => [s, Object.keys(r.content ?? {})]),
        ),
      });
    }
  }
  return operations;
}

// ---- hostile values ----------------------------------------------------------------------------

const HOSTILE_TEXT = [
  '',
  ' ',
  '\t\n',
  '-1',
  '0',
  '-0',
  '1.5',
  '0x10',
  '1e3',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740992',
  '9007199254740993',
  '99999999999999999999',
  '-99999999999999999999',
  '1e309',
  '-1e309',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '\u0000',
  'a\u0000b',
  '%00',
  '\ud800',
  '\udfff',
  'a\ud800b',
  '\udc00\ud800',
  '\uffff',
  '\ufeff',
  '\u202e',
  '\u200b',
  'İ',
  'ß',
  'ﬃ',
  '😀',
  '👩‍👩‍👧‍👦',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫg̯͉̹̈́',
  'Tiếng Việt đầy đủ',
  'مرحبا',
  '日本語',
  '\r\nSet-Cookie: x=1',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  '${7*7}',
  '%s%s%s%n',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1' UNION SELECT password_hash FROM users --",
  '" OR ""="',
  "\\'",
  '\\',
  '%',
  '_',
  '%_%',
  "'",
  '"',
  '`',
  '$1',
  ':id',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '/etc/passwd',
  'file:///etc/passwd',
  '....//....//etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  '..%c0%af..%c0%af',
  'C:\\boot.ini',
  '\\\\server\\share',
  'admin@example.com',
  'a@b',
  '@',
  'x@x.x',
  `${'a'.repeat(64)}@${'b'.repeat(190)}.com`,
  'http://169.254.169.254/latest/meta-data',
  'https://evil.example/reset-password',
  '//evil.example',
  'PUBLISHED',
  'APPROVED',
  'REJECTED',
  'asc',
  'DESC',
  'createdAt,desc',
  'title;DROP',
];

/** Whether `found` is part of one of HOSTILE_TEXT's values that `rawText` (JSON) carries whole. */
function echoesStoredHostileText(rawText: string, found: string): boolean {
  return HOSTILE_TEXT.some((value) => value.includes(found) && rawText.includes(JSON.stringify(value).slice(1, -1)));
}

/** Lengths around the limits: 100, 200, 254, 500, 1000, 2000, 200,000 characters and beyond. */
const LENGTHS = [101, 201, 255, 501, 1001, 2001, 10_001, 200_001, 300_000];

const arbLoneSurrogateText = fc
  .array(fc.oneof(fc.integer({ min: 0xd800, max: 0xdfff }), fc.integer({ min: 0x20, max: 0x7e })), { minLength: 1, maxLength: 8 })
  .map((units) => String.fromCharCode(...units));

export const arbHostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: arbLoneSurrogateText },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...LENGTHS), fc.constantFrom('x', 'é', '😀', '[', '\u0000', ' '))
      .map(([n, c]) => c.repeat(Math.ceil(n / c.length))),
  },
);

/**
 * Hostile text that passes the global text rule (no NUL, no lone surrogate), so that it reaches
 * the services, the database, slug derivation and Markdown rendering.
 */
const arbDeepText: fc.Arbitrary<string> = arbHostileText.filter(
  (text) => !text.includes('\u0000') && (text as unknown as { isWellFormed(): boolean }).isWellFormed(),
);

/** Markdown that stresses the renderer and sanitizer: deep nesting, long runs, raw HTML, odd links. */
const HOSTILE_MARKDOWN = [
  '>'.repeat(5000) + ' deep quote',
  '- '.repeat(3000) + 'deep list',
  '  '.repeat(5000) + '- item',
  '*'.repeat(50_000),
  '_a'.repeat(30_000),
  '['.repeat(20_000) + 'x' + ']'.repeat(20_000),
  '[a](' + '('.repeat(10_000) + ')',
  '`'.repeat(10_000) + 'code',
  '<'.repeat(30_000),
  '<div>'.repeat(5000),
  '| a | b |\n|---|---|\n' + '| 1 | 2 |\n'.repeat(10_000),
  '[x](javascript:alert(1)) [y](data:text/html;base64,PHNjcmlwdD4=) <script>alert(1)</script> <img src=x onerror=alert(1)> <a href="vbscript:x">v</a>',
  '![img](http://169.254.169.254/latest/meta-data) <iframe src="//evil.example"></iframe> <svg onload=alert(1)>',
  '&#x0; &#0; &#xD800; &#55296; &#x110000; &nbsp; &amp;amp;',
  '# '.repeat(1000) + 'heading',
  '\\'.repeat(20_000),
  '1. '.repeat(3000),
  'a\r\n'.repeat(30_000),
];
const arbMarkdown: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_MARKDOWN),
  arbDeepText,
  fc.string({ unit: 'grapheme', maxLength: 400 }),
);

/** Numbers JSON can carry (and Infinity/NaN, written as 1e309 / NaN tokens by `toJsonText`). */
const HOSTILE_NUMBERS = [
  -1,
  0,
  1,
  -0,
  0.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  Number.MIN_VALUE,
  Infinity,
  -Infinity,
  NaN,
];

/** A nested value as deep as asked (arrays or objects). */
const nested = (depth: number, kind: 'array' | 'object'): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { a: value };
  return value;
};

export const arbHostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: arbHostileText },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, [], {}, [1, 2], ['a', null], { $ne: null }, { $gt: '' }, { toString: 'x' }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(JSON.parse('{"__proto__":{"isAdmin":true,"role":"ADMIN"}}'), {
      constructor: { prototype: { isAdmin: true } },
    }),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(10, 31, 40, 100), fc.constantFrom<'array' | 'object'>('array', 'object'))
      .map(([d, k]) => nested(d, k)),
  },
  { weight: 1, arbitrary: fc.array(arbHostileText, { maxLength: 25 }) },
);

/** JSON text that can also carry the numbers JSON.stringify would turn into null (1e309, NaN). */
export function toJsonText(value: unknown): string {
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? '1e309' : '-1e309';
    return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value && typeof value === 'object') {
    // Own keys, `__proto__` included (JSON.parse creates it as an own key).
    return `{${Object.keys(value)
      .map((key) => `${JSON.stringify(key)}:${toJsonText((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** %-encoding that also writes lone surrogates (as WTF-8 bytes), which encodeURIComponent refuses. */
export function percentEncode(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else {
      out += encodeURIComponent(text[i]);
    }
  }
  return out;
}

/** Path segments sent as they are (already %-encoded or plain ASCII), for traversal and bad encodings. */
const RAW_SEGMENTS = [
  '..',
  '.',
  '../..',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2f',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%ED%B0%80',
  '%C0%AE',
  '%',
  '%zz',
  '%E0%A4%A',
  '%FF',
  ';',
  ';a=b',
  '~',
  'a,b',
  '%20',
  '1%2F2',
  '0',
  '-1',
  '1.0',
  '01',
  '+1',
  '1e3',
  ' 1'.trim(),
];

// ---- schema-driven values ----------------------------------------------------------------------

function resolve(doc: OpenAPIObject, schema: Schema | undefined): Schema {
  let current = schema ?? {};
  for (let i = 0; i < 10 && (current.$ref || (current.allOf?.length === 1 && !current.type)); i++) {
    if (current.$ref) {
      const name = String(current.$ref).split('/').pop() as string;
      current = {
        ...((doc.components?.schemas?.[name] as Schema) ?? {}),
        ...Object.fromEntries(Object.entries(current).filter(([k]) => k !== '$ref')),
      };
    } else {
      const { allOf, ...rest } = current;
      current = { ...resolve(doc, allOf[0]), ...rest };
    }
  }
  return current;
}

export interface Pools {
  ids: number[];
  slugs: string[];
  /** Addresses of real accounts (the fuzzing roles), whose password is KNOWN_PASSWORD. */
  emails: string[];
}

/** The password of the accounts fuzzed with (so sign-in and password changes can succeed). */
const KNOWN_PASSWORD = 'Str0ng!Pass';

/** A value drawn at send time from what the app answered so far (ids, slugs), by index. */
class FromPool {
  constructor(
    readonly pool: keyof Pools,
    readonly index: number,
  ) {}
}

/** A plausible, mostly valid value for a schema (so that requests get past validation too). */
function plausible(doc: OpenAPIObject, raw: Schema | undefined, name: string, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  const options: fc.WeightedArbitrary<unknown>[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<unknown>) => options.push({ weight, arbitrary });
  if (schema.enum) add(1, fc.constantFrom(...(schema.enum as unknown[])));
  else if (schema.type === 'boolean') add(1, fc.boolean());
  else if (schema.type === 'integer' || schema.type === 'number') {
    const min = Math.max(-1, schema.minimum ?? 0);
    if (/id$/i.test(name))
      add(
        4,
        fc.nat().map((i) => new FromPool('ids', i)),
      );
    add(4, fc.integer({ min, max: min + 3 }));
    add(1, fc.integer({ min, max: Math.min(schema.maximum ?? 1000, 1_000_000) }));
  } else if (schema.type === 'array') {
    add(1, fc.array(plausible(doc, schema.items, name, depth + 1), { maxLength: 4 }));
  } else if (schema.type === 'object' || schema.properties) {
    if (depth > 3) return fc.constant({});
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const required = (schema.required ?? []) as string[];
    const fields = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, plausible(doc, value, key, depth + 1)]));
    // Every field (services require some the schema leaves optional, e.g. a post's title), or a partial update.
    add(2, fc.record(fields));
    add(1, fc.record(fields, { requiredKeys: required.filter((key) => key in properties) }));
  } else if (schema.format === 'binary') {
    return fc.constant('binary');
  } else {
    // Strings: mostly what the field expects (by pattern, name, example, lengths), sometimes text
    // that passes the types but not the taste (odd Unicode, SQL, HTML, long runs).
    const max = Math.min(schema.maxLength ?? 80, 80);
    const min = Math.min(schema.minLength ?? 0, max);
    const fitted = fc
      .tuple(arbDeepText, fc.boolean())
      .map(([text, fit]) => (schema.maxLength && fit ? text.slice(0, schema.maxLength) : text));
    if (schema.pattern) add(20, fc.stringMatching(new RegExp(schema.pattern)));
    else if (/email/i.test(name) || schema.format === 'email')
      add(
        20,
        fc.oneof(
          fc.nat().map((i) => new FromPool('emails', i)),
          fc.emailAddress(),
        ),
      );
    else if (/password/i.test(name)) add(20, fc.constantFrom(KNOWN_PASSWORD, KNOWN_PASSWORD, 'Other-Pass-1', 'weak'));
    else if (/slug/i.test(name))
      add(
        20,
        fc.oneof(
          fc.nat().map((i) => new FromPool('slugs', i)),
          fc.stringMatching(/^[a-z0-9]{2,12}(-[a-z0-9]{1,8}){0,2}$/),
        ),
      );
    else if (/url|thumbnail|website|avatar|image/i.test(name))
      add(
        20,
        fc.oneof(
          fc.webUrl({ withQueryParameters: true, withFragments: true }),
          fc.constantFrom('/images/thumbnails/x.webp', '/images/../../etc/passwd'),
        ),
      );
    else if (/content|markdown/i.test(name)) add(6, fc.oneof(arbMarkdown, fc.lorem({ maxCount: 40, mode: 'sentences' })));
    else if (schema.example !== undefined) add(4, fc.constant(schema.example));
    else if (schema.format === 'date-time')
      add(
        4,
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      );
    add(4, fc.string({ minLength: Math.max(min, 2), maxLength: max }));
    add(2, fc.string({ unit: 'grapheme', minLength: min, maxLength: max }));
    add(2, fitted);
    if (schema.maxLength)
      add(1, fc.constantFrom('x'.repeat(schema.maxLength), 'é'.repeat(schema.maxLength), '😀'.repeat(Math.ceil(schema.maxLength / 2))));
  }
  if (schema.nullable) add(1, fc.constant(null));
  return fc.oneof(...options);
}

/** 'confirmPassword' takes 'password' (or 'newPassword') half of the time, so sign-ups can succeed. */
function pairConfirmations(body: Record<string, unknown>, copy: boolean): void {
  if (!copy) return;
  for (const key of Object.keys(body)) {
    if (!key.startsWith('confirm')) continue;
    const rest = key.slice('confirm'.length);
    const source = [rest[0]?.toLowerCase() + rest.slice(1), 'newPassword', 'password'].find((k) => k && k in body && k !== key);
    if (source) body[key] = body[source];
  }
}

// ---- request shapes ----------------------------------------------------------------------------

type AuthMode =
  'none' | 'bearer' | 'cookie' | 'cookie-csrf' | 'bearer-and-cookie' | 'tampered' | 'forged' | 'malformed' | 'malformed-cookie';

type PathValue = { kind: 'plausible'; value: unknown } | { kind: 'hostile'; value: unknown } | { kind: 'raw'; value: string };

type QueryValue = { name: string; values: unknown[] };

type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'text'; contentType: string; text: string }
  | { kind: 'bytes'; contentType: string; bytes: Uint8Array; encoding?: string }
  | { kind: 'multipart'; field: string; filename: string; contentType: string; file: FileSpec; extra: [string, string][] };

type FileSpec =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'image'; format: 'png' | 'jpeg' | 'gif' | 'webp'; width: number; height: number }
  | { kind: 'lying-png'; width: number; height: number; tail: Uint8Array }
  | { kind: 'truncated-png'; cut: number };

export interface FuzzCase {
  auth: AuthMode;
  tamper: { how: 'payload' | 'alg-none' | 'signature' | 'truncate' | 'swap' | 'header'; claim: unknown };
  malformed: string;
  pathValues: Record<string, PathValue>;
  query: QueryValue[];
  body: BodySpec;
  csrf: boolean;
}

const MALFORMED_AUTH = [
  'Bearer',
  'Bearer ',
  'bearer',
  'Bearer null',
  'Bearer undefined',
  'Bearer a.b',
  'Bearer a.b.c',
  'Bearer ...',
  'Bearer eyJ',
  'Bearer eyJhbGciOiJIUzI1NiJ9..',
  'Basic YWRtaW46YWRtaW4=',
  'Token abc',
  'Bearer  two  spaces',
  'Bearer \t tab',
  `Bearer ${'A'.repeat(4000)}`,
  `Bearer ${'x.'.repeat(300)}`,
  'Bearer %00',
  "Bearer ' OR 1=1 --",
  'Bearer ../../etc/passwd',
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOjF9.',
  `Bearer ${'a'.repeat(20_000)}`,
  // Personal API tokens: unknown, cut, too long, not base64url.
  'Bearer inkw_',
  `Bearer inkw_${'A'.repeat(43)}`,
  `Bearer inkw_${'A'.repeat(42)}`,
  `Bearer inkw_${'A'.repeat(4000)}`,
  "Bearer inkw_' OR 1=1 --",
  `Bearer INKW_${'b'.repeat(43)}`,
];

function arbPathValue(doc: OpenAPIObject, param: Operation['parameters'][number]): fc.Arbitrary<PathValue> {
  return fc.oneof(
    { weight: 5, arbitrary: plausible(doc, param.schema, param.name).map((value): PathValue => ({ kind: 'plausible', value })) },
    {
      weight: 2,
      arbitrary: fc.oneof(arbHostileText, fc.constantFrom(...HOSTILE_NUMBERS)).map((value): PathValue => ({ kind: 'hostile', value })),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS).map((value): PathValue => ({ kind: 'raw', value })) },
  );
}

function arbQuery(doc: OpenAPIObject, params: Operation['parameters']): fc.Arbitrary<QueryValue[]> {
  const declared = params.filter((p) => p.in === 'query');
  const each = declared.map((param) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(null) },
      { weight: 4, arbitrary: plausible(doc, param.schema, param.name).map((v) => ({ name: param.name, values: [v] })) },
      { weight: 2, arbitrary: arbHostileJson.map((v) => ({ name: param.name, values: [v] })) },
      { weight: 1, arbitrary: fc.array(arbHostileText, { minLength: 2, maxLength: 3 }).map((values) => ({ name: param.name, values })) },
    ),
  );
  // One case in ten adds a parameter the operation does not declare.
  const unknown = fc.oneof(
    { weight: 9, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom('__proto__', 'constructor', 'page[0]', 'a[b][c]', 'sort', 'role', 'isAdmin', '\u0000', 'x'.repeat(300)),
        arbHostileText,
      ),
    },
  );
  return fc.tuple(fc.tuple(...each), unknown).map(([values, extra]) => {
    const list = values.filter((v): v is QueryValue => v !== null);
    if (extra) list.push({ name: extra[0], values: [extra[1]] });
    return list;
  });
}

function arbJsonBody(doc: OpenAPIObject, schema: Schema): fc.Arbitrary<BodySpec> {
  const object = plausible(doc, schema, 'body');
  const properties = Object.keys(resolve(doc, schema).properties ?? {});
  const mutated = fc
    .tuple(
      object,
      fc.array(
        fc.tuple(
          fc.oneof(
            fc.constantFrom(...(properties.length ? properties : ['field'])),
            fc.constantFrom('extra', 'id', 'role', 'roles', 'isAdmin', 'passwordHash', 'authorId', 'status', '__proto__', ''),
          ),
          arbHostileJson,
        ),
        { minLength: 1, maxLength: 3 },
      ),
      fc.boolean(),
      fc.nat(2),
    )
    .map(([value, hostileChanges, copy, draw]): BodySpec => {
      // Two bodies in three keep to the schema (so requests reach the services and the database
      // with odd but valid text); the third carries one to three hostile fields.
      const changes = draw > 0 ? [] : hostileChanges;
      if (value && typeof value === 'object' && !Array.isArray(value)) {
        const body = { ...(value as Record<string, unknown>) };
        pairConfirmations(body, copy);
        for (const [key, hostile] of changes)
          Object.defineProperty(body, key, { value: hostile, enumerable: true, writable: true, configurable: true });
        return { kind: 'json', value: body };
      }
      return { kind: 'json', value };
    });
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  return fc.oneof(
    { weight: 12, arbitrary: mutated },
    { weight: 2, arbitrary: arbHostileJson.map((value): BodySpec => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<BodySpec>(
        { kind: 'text', contentType: 'application/json', text: deep(5000) },
        { kind: 'text', contentType: 'application/json', text: '{"a":'.repeat(5000) + '1' + '}'.repeat(5000) },
        { kind: 'text', contentType: 'application/json', text: '['.repeat(100_000) },
        { kind: 'text', contentType: 'application/json', text: '{"email":' },
        { kind: 'text', contentType: 'application/json', text: '{"email":"a@b.co",}' },
        { kind: 'text', contentType: 'application/json', text: "{'email':'a@b.co'}" },
        { kind: 'text', contentType: 'application/json', text: '{"email":"\\ud800@x.com","password":"x"}' },
        { kind: 'text', contentType: 'application/json', text: '{"a":1,"a":2,"__proto__":{"x":1}}' },
        { kind: 'text', contentType: 'application/json', text: '"just a string"' },
        { kind: 'text', contentType: 'application/json', text: 'null' },
        { kind: 'text', contentType: 'application/json', text: '12' },
        { kind: 'text', contentType: 'application/json', text: '' },
        { kind: 'text', contentType: 'application/json; charset=latin1', text: '{}' },
        { kind: 'text', contentType: 'application/json; charset=utf-16le', text: '{}' },
        { kind: 'text', contentType: 'application/json; charset=nope', text: '{}' },
        { kind: 'text', contentType: 'text/plain', text: '{"title":"x"}' },
        { kind: 'text', contentType: 'application/x-www-form-urlencoded', text: 'email=a%40b.co&password=%00&a[b]=c&a=1&a=2' },
        { kind: 'text', contentType: 'application/x-www-form-urlencoded', text: '%%%=%zz&=&&' },
        {
          kind: 'text',
          contentType: 'application/xml',
          text: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
        },
        {
          kind: 'text',
          contentType: 'multipart/form-data; boundary=zzz',
          text: '--zzz\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n--zzz--',
        },
        { kind: 'text', contentType: 'multipart/form-data', text: 'no boundary' },
      ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.uint8Array({ maxLength: 300 }),
          fc.constantFrom('application/json', 'application/octet-stream', 'application/json; charset=utf-8'),
          fc.constantFrom(undefined, 'gzip', 'deflate', 'br', 'identity', 'x-unknown'),
        )
        .map(([bytes, contentType, encoding]): BodySpec => ({ kind: 'bytes', contentType, bytes, encoding })),
    },
  );
}

/** Multipart bodies; `fileField` is the operation's documented file field (`file` for avatars, `image` for the images API). */
function arbMultipartBody(fileField: string): fc.Arbitrary<BodySpec> {
  const file: fc.Arbitrary<FileSpec> = fc.oneof(
    { weight: 3, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((bytes): FileSpec => ({ kind: 'bytes', bytes })) },
    {
      weight: 2,
      arbitrary: fc
        .record({
          format: fc.constantFrom<'png' | 'jpeg' | 'gif' | 'webp'>('png', 'jpeg', 'gif', 'webp'),
          width: fc.constantFrom(1, 16, 300, 4000),
          height: fc.constantFrom(1, 16, 200, 3000),
        })
        .map((r): FileSpec => ({ kind: 'image', ...r })),
    },
    {
      weight: 1,
      arbitrary: fc
        .record({
          width: fc.constantFrom(1, 65_535, 2 ** 31 - 1, 100_000),
          height: fc.constantFrom(1, 65_535, 2 ** 31 - 1, 100_000),
          tail: fc.uint8Array({ maxLength: 64 }),
        })
        .map((r): FileSpec => ({ kind: 'lying-png', ...r })),
    },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200 }).map((cut): FileSpec => ({ kind: 'truncated-png', cut })) },
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({
          field: fc.constantFrom(fileField, fileField, fileField, fileField === 'file' ? 'image' : 'file', 'avatar', 'files', ''),
          filename: fc.constantFrom(
            'a.png',
            '../../etc/passwd',
            '..\\..\\x.png',
            'x.php',
            '.htaccess',
            'a'.repeat(300) + '.png',
            'évidence 😀.png',
            '%00.png',
            'noext',
          ),
          contentType: fc.constantFrom(
            'image/png',
            'image/jpeg',
            'image/svg+xml',
            'text/html',
            'application/octet-stream',
            'application/x-php',
          ),
          file,
          extra: fc.array(
            fc.tuple(
              fc.constantFrom('name', 'file', 'x', 'bio'),
              arbHostileText.map((s) => s.slice(0, 2000)),
            ),
            { maxLength: 7 },
          ),
        })
        .map((r): BodySpec => ({ kind: 'multipart', ...r })),
    },
    { weight: 2, arbitrary: arbJsonBody({ paths: {} } as unknown as OpenAPIObject, { type: 'object' }) },
  );
}

export function arbCase(doc: OpenAPIObject, op: Operation, caller: Caller): fc.Arbitrary<FuzzCase> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const authModes: AuthMode[] =
    caller === 'anonymous'
      ? ['none', 'none', 'none', 'malformed', 'malformed-cookie', 'tampered', 'forged']
      : ['bearer', 'bearer', 'bearer', 'cookie', 'cookie-csrf', 'bearer-and-cookie', 'tampered', 'forged', 'malformed'];
  let body: fc.Arbitrary<BodySpec> = fc.constant({ kind: 'none' });
  if (op.body?.['multipart/form-data'])
    body = arbMultipartBody(Object.keys(resolve(doc, op.body['multipart/form-data']).properties ?? { file: 1 })[0] ?? 'file');
  else if (op.body) body = arbJsonBody(doc, op.body['application/json'] ?? Object.values(op.body)[0]);
  else
    body = fc.oneof(
      { weight: 4, arbitrary: fc.constant<BodySpec>({ kind: 'none' }) },
      { weight: 1, arbitrary: arbHostileJson.map((value): BodySpec => ({ kind: 'json', value })) },
    );
  return fc.record({
    auth: fc.constantFrom(...authModes),
    tamper: fc.record({
      how: fc.constantFrom<FuzzCase['tamper']['how']>('payload', 'alg-none', 'signature', 'truncate', 'swap', 'header'),
      claim: arbHostileJson,
    }),
    malformed: fc.constantFrom(...MALFORMED_AUTH),
    pathValues: fc.record(Object.fromEntries(pathParams.map((p) => [p.name, arbPathValue(doc, p)]))) as fc.Arbitrary<
      Record<string, PathValue>
    >,
    query: arbQuery(doc, op.parameters),
    body,
    csrf: fc.boolean(),
  });
}

// ---- sending and judging -----------------------------------------------------------------------

const LEAKS: [RegExp, string][] = [
  [/\bat [^\n"]*\.(?:js|ts|mjs|cjs):\d+/, 'stack trace'],
  [/node_modules/, 'file path'],
  [/(?:\/work\/|\/home\/|\/root\/|\/tmp\/|\/usr\/|[A-Z]:\\\\)[\w.-]/, 'file path'],
  [/\bSELECT\s/, 'SQL'],
  [/\b(?:INSERT INTO|UPDATE\s+"?\w+"?\s+SET|DELETE FROM)\b/, 'SQL'],
  [/QueryFailedError|EntityNotFound|TypeORMError|DriverException/, 'ORM error'],
  [
    /syntax error at or near|violates (?:unique|foreign key|not-null|check) constraint|invalid input syntax|out of range for type|relation "\w+" does not exist/i,
    'SQL error',
  ],
  [/\b(?:TypeError|ReferenceError|RangeError|SyntaxError|URIError):/, 'JS error'],
  [/Maximum call stack/, 'JS error'],
];

export interface Failure {
  operationId: string;
  method: string;
  path: string;
  caller: Caller;
  auth: AuthMode;
  url: string;
  body: string;
  status: number | null;
  problem: string;
  answer: string;
  curl: string;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  failures: Failure[];
  /** Distinct failures by operation, problem and status (the same bug is listed once in `failures`). */
  failureCounts: Record<string, number>;
  byOperation: Record<string, number>;
  /** Answers per operation and status, e.g. `createAuthorPost 201`. */
  byOperationStatus: Record<string, number>;
  /** Up to five distinct messages per operation and status (to see how deep the cases get). */
  messages: Record<string, string[]>;
  undocumentedStatuses: Record<string, number>;
  tokensRenewed: number;
  durationMs: number;
}

/** Long strings shortened for reports: first 80 characters and the length. */
function shorten(value: unknown): string {
  const text =
    typeof value === 'string'
      ? value
      : (() => {
          try {
            return toJsonText(value);
          } catch {
            return '(unprintable)';
          }
        })();
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 300 ? `${escaped.slice(0, 120)}…(${text.length} chars)` : escaped;
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** A PNG whose header claims `width`x`height` (CRC left wrong or right at random) followed by junk. */
function lyingPng(width: number, height: number, tail: Uint8Array): Buffer {
  const header = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  const dims = Buffer.alloc(8);
  dims.writeUInt32BE(width >>> 0, 0);
  dims.writeUInt32BE(height >>> 0, 4);
  return Buffer.concat([header, dims, Buffer.from([8, 6, 0, 0, 0]), Buffer.alloc(4), Buffer.from(tail)]);
}

const REAL_TOKEN_MODES = new Set<AuthMode>(['bearer', 'cookie', 'cookie-csrf', 'bearer-and-cookie']);

export interface ApiFuzzer {
  operations: Operation[];
  /** Gives the database logger back its own error output. */
  restore(): void;
  /** Runs `runsPerPair` cases for every operation × caller; seeds derive from `seed`. */
  run(options: { runs: number; seed: number; onProgress?: (done: number, total: number) => void }): Promise<FuzzReport>;
}

/** Builds the document from the running app and prepares one account per role. */
export async function createApiFuzzer(t: TestApp): Promise<ApiFuzzer> {
  const doc = openApiDocumentOf(t.app);
  const operations = operationsOf(doc);
  const jwt = t.app.get(JwtService, { strict: false });
  const roles: Record<Exclude<Caller, 'anonymous'>, RoleName> = { USER: RoleName.USER, AUTHOR: RoleName.AUTHOR, ADMIN: RoleName.ADMIN };
  const users = {} as Record<Exclude<Caller, 'anonymous'>, TestUser>;

  // Database errors are bugs even when the answer is a 4xx (a guard or a catch may have hidden
  // them): every query error but a unique violation (which the services turn into 409) counts.
  const databaseErrors: string[] = [];
  const logger = t.app.get(DataSource).logger as { logQueryError: (error: unknown, query: string) => unknown };
  const originalLogQueryError = logger.logQueryError.bind(logger);
  logger.logQueryError = (error: unknown, query: string) => {
    const driverError = error as { code?: string; message?: string };
    if (driverError?.code !== '23505')
      databaseErrors.push(`${driverError?.code ?? ''} ${driverError?.message ?? String(error)} in ${query.slice(0, 160)}`);
  };

  const pools: Pools = { ids: [1], slugs: ['a'], emails: [] };
  const knownPasswordHash = await bcrypt.hash(KNOWN_PASSWORD, 4);
  /** A fresh account for a role, with the known password; its address joins the pool. */
  async function account(caller: Exclude<Caller, 'anonymous'>): Promise<TestUser> {
    const user = await createUser(t, [roles[caller]]);
    await t.app.get(DataSource).query('UPDATE users SET password_hash = $1 WHERE id = $2', [knownPasswordHash, user.id]);
    pools.emails.push(user.email);
    return user;
  }
  for (const caller of Object.keys(roles) as Exclude<Caller, 'anonymous'>[]) users[caller] = await account(caller);
  const remember = (value: unknown, depth = 0): void => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) return value.slice(0, 20).forEach((v) => remember(v, depth + 1));
    for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
      if (key === 'id' && Number.isSafeInteger(v) && !pools.ids.includes(v as number)) pools.ids.push(v as number);
      else if (key === 'slug' && typeof v === 'string' && !pools.slugs.includes(v)) pools.slugs.push(v);
      else remember(v, depth + 1);
    }
    if (pools.ids.length > 200) pools.ids.splice(1, pools.ids.length - 200);
    if (pools.slugs.length > 200) pools.slugs.splice(1, pools.slugs.length - 200);
  };

  // Some content to aim at: tags, posts in several states, a review.
  const admin = users.ADMIN.auth;
  const author = users.AUTHOR.auth;
  for (let i = 0; i < 3; i++)
    remember(
      (
        await t.http
          .post('/api/v1/blog/tags')
          .set(admin)
          .send({ name: `Fuzz tag ${Date.now()} ${i}` })
      ).body,
    );
  const tagSlugs = pools.slugs.slice(1);
  remember(
    (
      await t.http
        .post('/api/v1/blog/posts')
        .set(admin)
        .send({ title: `Fuzz published ${Date.now()}`, content: '# Hello\n\nBody', status: 'PUBLISHED', tagSlugs })
    ).body,
  );
  const draft = (
    await t.http
      .post('/api/v1/blog/posts/author/create')
      .set(author)
      .send({ title: `Fuzz draft ${Date.now()}`, content: 'Draft body', tagSlugs })
  ).body;
  remember(draft);
  const pending = (
    await t.http
      .post('/api/v1/blog/posts/author/create')
      .set(author)
      .send({ title: `Fuzz pending ${Date.now()}`, content: 'Pending body' })
  ).body;
  remember(pending);
  if (pending?.data?.id) await t.http.post(`/api/v1/blog/posts/author/${pending.data.id}/submit-for-review`).set(author);

  /** Resolves pool references (ids, slugs) at send time, keeping own `__proto__` keys. */
  const pick = (v: unknown): unknown => {
    if (v instanceof FromPool) return pools[v.pool][v.index % pools[v.pool].length];
    if (Array.isArray(v)) return v.map(pick);
    if (v && typeof v === 'object') {
      const out = {};
      for (const key of Object.keys(v))
        Object.defineProperty(out, key, {
          value: pick((v as Record<string, unknown>)[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      return out;
    }
    return v;
  };
  const text = (v: unknown): string => {
    const value = pick(v);
    return typeof value === 'string' ? value : toJsonText(value);
  };

  async function tokenFor(caller: Exclude<Caller, 'anonymous'>, c: FuzzCase): Promise<string> {
    const token = users[caller].token;
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    if (c.auth === 'forged') {
      // Signed with the real key but with hostile claims (what a leaked key or a bug in issuing could produce).
      const claim = c.tamper.how === 'payload' ? 'sub' : c.tamper.how === 'header' ? 'sid' : c.tamper.how === 'swap' ? 'exp' : 'iat';
      try {
        return await jwt.signAsync({ ...claims, [claim]: c.tamper.claim } as object, claim === 'exp' || claim === 'iat' ? {} : undefined);
      } catch {
        return jwt.signAsync({ sub: claims.sub, sid: text(c.tamper.claim) });
      }
    }
    switch (c.tamper.how) {
      case 'payload':
        return `${header}.${base64url(JSON.stringify({ ...claims, sub: c.tamper.claim }))}.${signature}`;
      case 'alg-none':
        return `${base64url('{"alg":"none","typ":"JWT"}')}.${base64url(JSON.stringify({ ...claims, sub: users.ADMIN.id }))}.`;
      case 'signature':
        return `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      case 'truncate':
        return token.slice(0, Math.max(1, token.length - 7));
      case 'swap':
        return `${header}.${users.ADMIN.token.split('.')[1]}.${signature}`;
      case 'header':
        return `${base64url(JSON.stringify({ alg: 'HS512', typ: 'JWT', kid: text(c.tamper.claim).slice(0, 100) }))}.${payload}.${signature}`;
    }
  }

  /** Header values Node's client accepts (visible ASCII): anything else %-encoded. */
  const headerSafe = (value: string) => value.replace(/[^\t\x20-\x7e]/g, (ch) => percentEncode(ch));

  async function authHeaders(caller: Caller, c: FuzzCase): Promise<{ headers: Record<string, string>; shown: Record<string, string> }> {
    const headers: Record<string, string> = {};
    const shown: Record<string, string> = {};
    const set = (name: string, value: string, display: string) => {
      headers[name] = value;
      shown[name] = display;
    };
    const account = caller === 'anonymous' ? 'USER' : caller;
    switch (c.auth) {
      case 'none':
        break;
      case 'bearer':
        set('Authorization', `Bearer ${users[account].token}`, `Bearer <${caller} token>`);
        break;
      case 'cookie':
      case 'cookie-csrf':
        set('Cookie', `inkwell_access=${users[account].token}`, `inkwell_access=<${caller} token>`);
        if (c.auth === 'cookie-csrf') set('X-Request-Timestamp', String(Date.now()), '<now>');
        break;
      case 'bearer-and-cookie':
        set('Authorization', `Bearer ${users[account].token}`, `Bearer <${caller} token>`);
        set(
          'Cookie',
          `inkwell_access=${users.USER.token}; inkwell_refresh=${percentEncode(text(c.tamper.claim)).slice(0, 500)}`,
          `inkwell_access=<USER token>; inkwell_refresh=…`,
        );
        break;
      case 'tampered':
      case 'forged': {
        const token = await tokenFor(account, c);
        if (c.csrf) set('Authorization', `Bearer ${headerSafe(token)}`, `Bearer ${shorten(token)}`);
        else set('Cookie', `inkwell_access=${percentEncode(token)}`, `inkwell_access=${shorten(token)}`);
        break;
      }
      case 'malformed':
        set('Authorization', headerSafe(c.malformed), shorten(c.malformed));
        break;
      case 'malformed-cookie':
        set(
          'Cookie',
          `inkwell_access=${percentEncode(text(c.tamper.claim)).slice(0, 4000)}; inkwell_refresh=%00`,
          `inkwell_access=${shorten(text(c.tamper.claim))}`,
        );
        break;
    }
    if (c.csrf && !headers['X-Request-Timestamp'])
      set('X-Request-Timestamp', headerSafe(text(c.tamper.claim)).slice(0, 200), shorten(text(c.tamper.claim)));
    return { headers, shown };
  }

  function urlOf(op: Operation, c: FuzzCase): string {
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const v = c.pathValues[name];
      if (!v) return '1';
      if (v.kind === 'raw') return v.value;
      return percentEncode(text(v.value)) || '%20';
    });
    const query = c.query.flatMap(({ name, values }) => values.map((v) => `${percentEncode(name)}=${percentEncode(text(v))}`));
    return query.length ? `${path}?${query.join('&')}` : path;
  }

  async function fileBytes(file: FileSpec): Promise<Buffer> {
    switch (file.kind) {
      case 'bytes':
        return Buffer.from(file.bytes);
      case 'image': {
        const image = sharp({ create: { width: file.width, height: file.height, channels: 3, background: { r: 10, g: 200, b: 90 } } });
        return image.toFormat(file.format).toBuffer();
      }
      case 'lying-png':
        return lyingPng(file.width, file.height, file.tail);
      case 'truncated-png': {
        const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 1, g: 2, b: 3 } } })
          .png()
          .toBuffer();
        return png.subarray(0, Math.min(file.cut, png.length - 1));
      }
    }
  }

  /** The body and a description of it for reports. */
  async function bodyOf(body: BodySpec): Promise<{ apply: (req: any) => any; shown: string; curl: string; sent: string }> {
    switch (body.kind) {
      case 'none':
        return { apply: (req) => req, shown: '(none)', curl: '', sent: '' };
      case 'json': {
        const json = toJsonText(pick(body.value));
        return {
          apply: (req) => req.set('Content-Type', 'application/json').send(json),
          shown: shorten(json),
          curl: ` -H 'Content-Type: application/json' --data-binary ${JSON.stringify(json.length > 2000 ? json.slice(0, 2000) + '…' : json)}`,
          sent: json,
        };
      }
      case 'text':
        return {
          apply: (req) => req.set('Content-Type', body.contentType).send(body.text),
          shown: `${body.contentType}: ${shorten(body.text)}`,
          curl: ` -H 'Content-Type: ${body.contentType}' --data-binary ${JSON.stringify(body.text.slice(0, 2000))}`,
          sent: body.text,
        };
      case 'bytes':
        return {
          apply: (req) => {
            const r = req.set('Content-Type', body.contentType);
            if (body.encoding) r.set('Content-Encoding', body.encoding);
            return r.send(Buffer.from(body.bytes));
          },
          shown: `${body.contentType}${body.encoding ? ` (${body.encoding})` : ''}: bytes ${Buffer.from(body.bytes).toString('hex').slice(0, 120)}`,
          curl: ` -H 'Content-Type: ${body.contentType}' --data-binary @<(printf '${Buffer.from(body.bytes).toString('hex').slice(0, 600).replace(/../g, '\\x$&')}')`,
          sent: Buffer.from(body.bytes).toString('latin1'),
        };
      case 'multipart': {
        const bytes = await fileBytes(body.file);
        const fileShown =
          body.file.kind === 'bytes'
            ? `${bytes.length} random bytes`
            : `${body.file.kind} ${JSON.stringify({ ...body.file, tail: undefined })}`;
        return {
          apply: (req) => {
            let r = req;
            for (const [name, value] of body.extra) r = r.field(name, value);
            if (body.field) r = r.attach(body.field, bytes, { filename: body.filename, contentType: body.contentType });
            return r;
          },
          shown: `multipart ${body.field || '(no file)'}=${fileShown} as ${shorten(body.filename)} (${body.contentType}) + ${body.extra.length} fields`,
          curl: ` -F '${body.field}=@file;filename=${body.filename};type=${body.contentType}'`,
          sent: `${body.filename} ${body.extra.map(([name, value]) => `${name} ${value}`).join(' ')}`,
        };
      }
    }
  }

  /** What is wrong with an answer, or null. */
  function judge(op: Operation, res: Response, sent: string): string | null {
    const status = res.status;
    if (status >= 500) return `${status} answer`;
    const type = String(res.headers['content-type'] ?? '');
    const documented = op.responses[String(status)];
    const rawText = res.text ?? '';
    if (!rawText) {
      if (documented && documented.length === 0) return null; // e.g. a documented 204
      return `empty body with ${status}`;
    }
    if (!/^application\/json/.test(type)) {
      if (documented?.some((media) => type.startsWith(media) && !media.includes('json'))) return null;
      return `not JSON (${type || 'no content type'})`;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(rawText) as Record<string, unknown>;
    } catch {
      return 'unparsable JSON';
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return 'not the envelope (not an object)';
    if (typeof body.success !== 'boolean') return 'not the envelope (success)';
    if (body.success !== status < 400) return `success ${String(body.success)} with HTTP ${status}`;
    if (body.status !== status) return `envelope status ${String(body.status)} differs from HTTP ${status}`;
    if (typeof body.message !== 'string' || !body.message) return 'not the envelope (message)';
    if (!('data' in body)) return 'not the envelope (data)';
    if (!('errors' in body) || (body.errors !== null && typeof body.errors !== 'object')) return 'not the envelope (errors)';
    if (!body.success && body.data !== null) return 'error answer with data';
    // A bare reason phrase ('Bad Request') is a framework default, not a message written for the client.
    if (!body.success && body.message === STATUS_CODES[status]) return `bare status text as message: ${body.message}`;
    for (const [pattern, what] of LEAKS) {
      const match = pattern.exec(rawText);
      // Text the request itself carried may come back (a stored bio, an unknown field's name), and so
      // may a hostile value an earlier request stored (a name shown in the audit log's activities).
      if (match && !sent.includes(match[0]) && !sent.includes(unescapeJson(match[0])) && !echoesStoredHostileText(rawText, match[0]))
        return `leaks ${what}: ${shorten(rawText.slice(Math.max(0, match.index - 60), match.index + 120))}`;
    }
    return null;
  }

  async function stillSignedIn(caller: Exclude<Caller, 'anonymous'>): Promise<boolean> {
    const res = await t.http.get('/api/v1/users/profile').set(users[caller].auth);
    return res.status === 200;
  }

  return {
    operations,
    restore: () => {
      logger.logQueryError = originalLogQueryError;
    },
    async run({ runs, seed, onProgress }) {
      const started = Date.now();
      const report: FuzzReport = {
        seed,
        runs: 0,
        requests: 0,
        byStatus: {},
        serverErrors: 0,
        failures: [],
        failureCounts: {},
        byOperation: {},
        byOperationStatus: {},
        messages: {},
        undocumentedStatuses: {},
        tokensRenewed: 0,
        durationMs: 0,
      };
      const pairs = operations.flatMap((op) => CALLERS.map((caller) => ({ op, caller })));
      const perPair = Math.max(1, Math.ceil(runs / pairs.length));
      let done = 0;
      for (const [index, { op, caller }] of pairs.entries()) {
        await fc.assert(
          fc.asyncProperty(arbCase(doc, op, caller), async (c) => {
            let url = op.path;
            let auth: Awaited<ReturnType<typeof authHeaders>> = { headers: {}, shown: {} };
            let body: Awaited<ReturnType<typeof bodyOf>> = { apply: (req) => req, shown: '?', curl: '', sent: '' };
            let res: Response | null = null;
            let problem: string | null = null;
            databaseErrors.length = 0;
            try {
              url = urlOf(op, c);
              auth = await authHeaders(caller, c);
              body = await bodyOf(c.body);
            } catch (error) {
              // A bug of this harness, not of the app: reported, and the run goes on.
              problem = `harness error: ${(error as Error).stack ?? String(error)}`;
            }
            const sent = `${url} ${decodeURIComponentSafe(url)} ${body.sent}`;
            try {
              if (problem) throw new Error(problem);
              let req = (t.http as any)
                [op.method](url)
                .timeout({ response: 30_000, deadline: 60_000 })
                .ok(() => true);
              for (const [name, value] of Object.entries(auth.headers)) req = req.set(name, value);
              res = (await body.apply(req)) as Response;
              problem = judge(op, res, sent) ?? (databaseErrors.length ? `database error: ${databaseErrors[0]}` : null);
            } catch (error) {
              const e = error as NodeJS.ErrnoException;
              problem ??= `no answer: ${e.code ?? ''} ${e.message}`.trim();
            }
            report.requests += 1;
            report.runs += 1;
            report.byOperation[op.operationId] = (report.byOperation[op.operationId] ?? 0) + 1;
            const status = res?.status ?? null;
            if (status !== null) {
              report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
              const opStatus = `${op.operationId} ${status}`;
              report.byOperationStatus[opStatus] = (report.byOperationStatus[opStatus] ?? 0) + 1;
              const seen = (report.messages[opStatus] ??= []);
              const message = typeof res?.body?.message === 'string' ? shorten(res.body.message).slice(0, 160) : '';
              if (seen.length < 5 && !seen.includes(message)) seen.push(message);
              if (status >= 500) report.serverErrors += 1;
              if (!op.responses[String(status)]) {
                const key = `${status} ${op.method.toUpperCase()} ${op.path}`;
                report.undocumentedStatuses[key] = (report.undocumentedStatuses[key] ?? 0) + 1;
              }
              if (status < 300) remember(res?.body);
            }
            if (problem) {
              const key = `${op.operationId}: ${problem.replace(/:.*$/, '')} (${status ?? 'none'})`;
              report.failureCounts[key] = (report.failureCounts[key] ?? 0) + 1;
              if (report.failureCounts[key] === 1) {
                const headerArgs = Object.entries(auth.shown)
                  .map(([k, v]) => ` -H '${k}: ${v}'`)
                  .join('');
                report.failures.push({
                  operationId: op.operationId,
                  method: op.method.toUpperCase(),
                  path: op.path,
                  caller,
                  auth: c.auth,
                  url: url.length > 400 ? `${url.slice(0, 400)}…(${url.length} chars)` : url,
                  body: body.shown,
                  status,
                  problem,
                  answer: shorten(res?.text ?? ''),
                  curl: `curl -X ${op.method.toUpperCase()} 'http://localhost:3000${url.slice(0, 2000)}'${headerArgs}${body.curl}`,
                });
              }
            }
            // A logout (or a forged token naming the real session) may have ended the session fuzzed
            // with: when the real token is refused, sign the role in afresh.
            if (
              caller !== 'anonymous' &&
              REAL_TOKEN_MODES.has(c.auth) &&
              (status === 401 || status === 403) &&
              !(await stillSignedIn(caller))
            ) {
              users[caller] = await account(caller);
              report.tokensRenewed += 1;
            }
            done += 1;
            onProgress?.(done, pairs.length * perPair);
          }),
          { numRuns: perPair, seed: seed + index, endOnFailure: true },
        );
      }
      report.durationMs = Date.now() - started;
      return report;
    },
  };
}

/** A piece of JSON string text with its escapes undone (as far as it can be). */
function unescapeJson(text: string): string {
  try {
    return JSON.parse(`"${text.replace(/\\$/, '')}"`) as string;
  } catch {
    return text;
  }
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The figures of a run, as printed by `npm run fuzz`. */
export function formatReport(report: FuzzReport): string {
  const lines = [
    `Fuzzed ${Object.keys(report.byOperation).length} operations x ${CALLERS.length} callers, seed ${report.seed}`,
    `requests: ${report.requests}   duration: ${(report.durationMs / 1000).toFixed(1)} s   5xx: ${report.serverErrors}   failures: ${Object.values(report.failureCounts).reduce((a, b) => a + b, 0)} (${report.failures.length} distinct)   tokens renewed: ${report.tokensRenewed}`,
    `by status: ${Object.entries(report.byStatus)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  ];
  const undocumented = Object.entries(report.undocumentedStatuses).sort(([, a], [, b]) => b - a);
  if (undocumented.length)
    lines.push(`statuses not in the OpenAPI document (not failures): ${undocumented.map(([k, n]) => `${k} x${n}`).join('; ')}`);
  for (const f of report.failures) {
    lines.push(
      '',
      `FAIL ${f.method} ${f.path} as ${f.caller} (${f.auth}): ${f.problem} [x${report.failureCounts[`${f.operationId}: ${f.problem.replace(/:.*$/, '')} (${f.status ?? 'none'})`]}]`,
      `  url:    ${f.url}`,
      `  body:   ${f.body}`,
      `  answer: ${f.answer}`,
      `  repro:  ${f.curl}`,
    );
  }
  return lines.join('\n');
}
