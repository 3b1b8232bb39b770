import { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  getSchemaPath,
  OpenAPIObject,
  type OperationObject,
  type PathItemObject,
  type SecuritySchemeObject,
  SwaggerModule,
} from '@nestjs/swagger';
import { UNTHROTTLED } from './decorators/unthrottled.decorator';
import { ErrorEnvelopeDto } from './envelope';

/**
 * Every tag an operation uses, declared with what it groups (the linter, redocly.yaml, refuses an
 * undeclared one). Sorted as Swagger UI shows them.
 */
const TAGS: { name: string; description: string }[] = [
  { name: 'Auth', description: 'Registration, e-mail verification, sign-in, token refresh, sign-out and password reset' },
  { name: 'Users', description: "The signed-in user's profile, avatar and password" },
  {
    name: 'Account sessions',
    description: "Where the signed-in user is signed in: their live sessions, signing them out, and the new-device e-mail's switch",
  },
  { name: 'Account', description: "The signed-in user's account security (/api/v1/account/...): two-factor sign-in" },
  { name: 'Public posts', description: 'Published posts as readers see them: lists, a post by slug, old slugs, authors, the sitemap' },
  { name: 'Posts', description: 'Posts by their authors and administrators: create, edit, submit for review, preview, delete' },
  { name: 'Revisions', description: "A post's saved versions, their differences, and restoring one" },
  { name: 'Preview links', description: 'Shareable links to an unpublished post' },
  { name: 'Reviews', description: "Administrators' review of submitted posts: approve or reject, schedules, the review history" },
  { name: 'Tags', description: 'Tags: the public lists and their administration' },
  { name: 'Comments', description: 'Comments and replies: reading, writing, editing, deleting, search and counts' },
  { name: 'Likes', description: 'Likes of published posts' },
  { name: 'Search', description: 'Full-text search over published posts, and related posts' },
  { name: 'Notifications', description: "The signed-in user's notifications and their preferences, and e-mail unsubscribe links" },
  { name: 'Dashboards', description: 'Figures for readers, authors, administrators and the site' },
  { name: 'Moderation', description: 'Comment moderation: the queue and its bulk actions, reports, hiding, muting users' },
  {
    name: 'Admin users',
    description:
      "User administration (administrators): lists, roles, bans, generated passwords, the audit log, the admin dashboard's figures",
  },
  {
    name: 'Admin settings',
    description:
      'Site-wide settings (administrators): the two-factor policy for administrators, what erasing an author does to their posts',
  },
  {
    name: 'Admin webhooks',
    description:
      "Webhooks (administrators): receivers of the domain events, signed with X-Inkwell-Signature; the test event, the delivery log and redelivery (README 'Webhooks')",
  },
  {
    name: 'Admin import and export',
    description:
      'Site import (WordPress WXR, Ghost JSON, Inkwell exports: uploaded, run by a job, with progress and a report) and the whole-site export (administrators)',
  },
  { name: 'Images', description: 'Post thumbnails: the upload rules, checks, uploads and deletion' },
  { name: 'API tokens', description: "The signed-in user's personal API tokens: create (shown once), list with last use, revoke" },
  {
    name: 'Your data',
    description: "The signed-in user's data: the export archive (Download my data) and account deletion with its grace period",
  },
  {
    name: 'Newsletter',
    description:
      "Following the publication, an author or a tag by e-mail: a reader's follows, the visitor's double opt-in, the signed preferences and one-click unsubscribe links",
  },
  {
    name: 'Newsletter administration',
    description: 'Subscribers (administrators): the list, CSV import and export, follower counts, the suppression list',
  },
  {
    name: 'Federation',
    description: "The social web: an author's fediverse followers, a post's likes and boosts from the fediverse, whether federation is on",
  },
  {
    name: 'Admin federation',
    description: 'The social web (administrators): on or off, blocked instances and actors, followers per actor, deliveries',
  },
  {
    name: 'Analytics',
    description: "Cookie-free page-view figures: an author's own posts (read scope), the whole site and each author (administrators)",
  },
  { name: 'Admin backups', description: 'The last backup and the schedule (administrators)' },
  { name: 'Health', description: 'Liveness and readiness of the server' },
];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/**
 * The OpenAPI document of the app. `securitySchemes` are the ways a session may be presented,
 * declared by auth (auth.decorator.ts), whose `@Auth()` and `@OptionalAuth()` name the same keys.
 */
export function buildOpenApiDocument(app: INestApplication, securitySchemes: Record<string, SecuritySchemeObject>): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Inkwell API')
    .setDescription(
      'Multi-author blog platform. Every answer uses the envelope `{ success, data, message, status, errors }`; ' +
        'errors keep the real HTTP status. Authenticate with `Authorization: Bearer <accessToken>` or the session cookie ' +
        '(cookie-authenticated writes must send `X-Request-Timestamp`), or with a personal API token (`Authorization: Bearer inkw_…`, ' +
        'limited to its scopes: each operation names the one it needs in `x-required-scope`). Each operation lists its own error answers; besides ' +
        'those, any request can be refused before it reaches its route, in the same envelope: 400 (a malformed URL or body), ' +
        '413 (a body over the size limit), 415 (a body in an unsupported encoding), 431 (headers too large).',
    )
    .setVersion('1.0')
    .setLicense('MIT', 'https://opensource.org/licenses/MIT')
    // The paths carry their full prefix (/api/v1/..., /images/...): the server is the site's own origin.
    .addServer('/', 'The origin that serves this document');
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  for (const [name, scheme] of Object.entries(securitySchemes)) builder.addSecurity(name, scheme);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
  return finishDocument(document);
}

/**
 * What the decorators cannot say route by route, written once for every operation:
 * - a route without `@Auth()` or `@OptionalAuth()` takes no credentials: `security: []`;
 * - the global rate limit (app.module.ts) can answer 429 on every route not marked `@Unthrottled()`;
 * - a property that only refers to another schema is that `$ref`, not a one-item `allOf`
 *   (how @nestjs/swagger writes an enum or a nested DTO).
 */
function finishDocument(document: OpenAPIObject): OpenAPIObject {
  // operationId is the controller method's name, and the generated client's types are keyed by it:
  // two methods of one name in different controllers would silently merge their types.
  const operationIds = new Set<string>();
  for (const item of Object.values(document.paths) as PathItemObject[]) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!operation) continue;
      if (operation.operationId !== undefined) {
        if (operationIds.has(operation.operationId))
          throw new Error(`Two API operations are named '${operation.operationId}': rename one controller method`);
        operationIds.add(operation.operationId);
      }
      operation.security ??= [];
      documentRateLimit(operation);
    }
  }
  return unwrapSingleAllOf(document);
}

function documentRateLimit(operation: OperationObject): void {
  const extensions = operation as OperationObject & Record<string, unknown>;
  if (extensions[UNTHROTTLED] === true || operation.responses['429']) return;
  operation.responses['429'] = {
    description: 'Too many requests from this client: the per-client rate limit (retryAfterSeconds says when to retry)',
    content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorEnvelopeDto) } } },
  };
}

function unwrapSingleAllOf<T>(value: T): T {
  if (Array.isArray(value)) return value.map(unwrapSingleAllOf) as T;
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === 'allOf' && Array.isArray(record.allOf) && record.allOf.length === 1) {
    return unwrapSingleAllOf(record.allOf[0]) as T;
  }
  return Object.fromEntries(keys.map((key) => [key, unwrapSingleAllOf(record[key])])) as T;
}

/** Stable JSON (keys sorted) so the committed openapi.json only changes when the API does. */
export function stableStringify(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}
