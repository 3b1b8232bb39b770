// The layout's import rules (docs/architecture.md#layers, docs/architecture.md#layers), checked by `npm run lint:deps`
// (scripts/lint-deps.mjs, which also reads the frontmatter of .astro files) in CI right after
// `npm ci`. Every rule is an error. Violations that other work is removing are listed, by file, in
// .dependency-cruiser-known-violations.json and do not fail the run; a new one does.
const { readdirSync } = require('node:fs');
const { join } = require('node:path');

// ---- backend/src ------------------------------------------------------------------------------

/** Shared layers: imported by everyone, import no feature. */
const SHARED = ['common', 'config', 'database'];

/**
 * The features (one folder per Nest module), bottom layer first. A feature imports only features
 * of lower layers: so two features never import each other and there is no cycle between
 * features. A new folder goes into a layer here (the config refuses to load otherwise).
 */
const LAYERS = [
  ['redis', 'jobs', 'mail', 'gateway', 'events'], // infrastructure: a Redis client, the job queue, mail, the in-process page gateway, the domain event stream
  ['images', 'audit', 'post-views', 'revisions', 'settings'], // stores that know no other feature
  ['users', 'tags'],
  ['sessions'], // refresh-token sessions, the devices signed in from and their e-mail, 'Where you're signed in' (built on users)
  ['two-factor', 'api-tokens'], // the second factor and its policy; personal API tokens (tokens are hashed as sessions' are)
  ['auth'], // sign-up, sign-in, refresh, passwords and the session guard (built on sessions, two-factor and API tokens)
  ['comments'], // comments and their visibility (the counted predicate every count uses); side effects follow its events
  ['notifications', 'dashboards', 'webhooks'], // webhooks: the domain events' deliveries to receivers (sealed secrets from common, jobs, mail)
  ['analytics'], // page-view analytics: the one page-view recorder (feeds post-views), rollups and figures; the frontend layer calls it
  ['posts', 'admin'], // the post: its lifecycle and public reads; the back office's users
  ['likes', 'previews', 'scheduling', 'search', 'federation'], // federation: the social web (Fedify), built on comments, events, jobs and webhooks' address checks
  ['moderation', 'reviews'],
  ['newsletter'], // following by e-mail and the sending of new posts (a reach module: it follows the domain events, imports no other reach module)
  ['account-data'], // The data export and account deletion move every feature's data through its owner
  ['imports', 'backup'], // site import and export: writes through every lifecycle owner above; backup and restore of every table
  ['frontend', 'health'], // hosts: the Astro page handler and its cache; the health check
];

/** Entry points: the scripts under bin/ (and the root files: main, app.module, app.factory) may import anything. */
const ENTRY = ['bin'];

/**
 * What every feature may import whatever its layer: from auth the caller type and `@Auth()` /
 * `@CurrentUser()`, and the role names users store. (auth is built on users, sessions, two-factor
 * and API tokens, yet their own routes need `@Auth()`; images sit below users and name roles.)
 */
const CALLER_SURFACE = '(auth/(auth\\.decorator|auth-user)|users/roles)\\.ts$';

/**
 * The modules built beneath auth for the signed-in account: they may also import what auth lends
 * them (AUTH_BASE), files that import nothing above them: the caller's one query (sessions and API
 * tokens resolve a caller with it), the session cookies (signing one's own session out clears
 * them), the password hasher (turning two-factor off takes the password) and auth's texts.
 */
const BESIDE_AUTH = ['sessions', 'two-factor', 'api-tokens'];
const AUTH_BASE = 'auth/(caller-query|auth\\.cookies|password-hasher|auth\\.messages)\\.ts$';

const BACKEND = join(__dirname, 'backend', 'src');
const placed = new Set([...SHARED, ...ENTRY, ...LAYERS.flat()]);
const unplaced = readdirSync(BACKEND, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !placed.has(entry.name));
if (unplaced.length) {
  throw new Error(
    `.dependency-cruiser.cjs: put backend/src/${unplaced.map((entry) => entry.name).join(', backend/src/')} into a layer of LAYERS (or SHARED)`,
  );
}

const any = (names) => `(${names.join('|')})`;

/** One rule per layer and kind of file: features of layer `index` import no feature of their own layer or above. */
function layerRules() {
  return LAYERS.flatMap((layer, index) => {
    const here = any(layer);
    const notBelow = any(LAYERS.slice(index).flat());
    const lent = layer.every((feature) => BESIDE_AUTH.includes(feature)) ? [`^backend/src/${AUTH_BASE}`] : [];
    const base = {
      name: 'feature-layers',
      severity: 'error',
      comment:
        'A feature imports a feature of its own layer or above (LAYERS in .dependency-cruiser.cjs): arrows point down. ' +
        'Move the shared piece down, or have the upper feature call the lower one.',
    };
    return [
      {
        ...base,
        from: { path: `^backend/src/${here}/`, pathNot: `^backend/src/[^/]+/entities/` },
        // Entity files are the schema every layer reads (relations, status enums); who may write which
        // columns is the lifecycle owners' rule (docs/architecture.md), not an import's.
        to: {
          path: `^backend/src/${notBelow}/`,
          pathNot: [`^backend/src/$1/`, `^backend/src/${CALLER_SURFACE}`, ...lent, '^backend/src/[^/]+/entities/[^/]+\\.entity\\.ts$'],
        },
      },
      // An entity may reference another feature's entity (a TypeORM relation), and nothing else above it.
      {
        ...base,
        from: { path: `^backend/src/${here}/entities/` },
        to: {
          path: `^backend/src/${notBelow}/`,
          pathNot: [`^backend/src/$1/`, `^backend/src/${CALLER_SURFACE}`, '^backend/src/[^/]+/entities/'],
        },
      },
    ];
  });
}

const backendRules = [
  {
    name: 'shared-imports-no-feature',
    severity: 'error',
    comment:
      'common/, config/ and database/ are beneath every feature: they import none (invert the dependency, or move the file into the feature).',
    from: { path: `^backend/src/${any(SHARED)}/`, pathNot: '^backend/src/database/entities\\.ts$' },
    to: { path: '^backend/src/', pathNot: `^backend/src/${any(SHARED)}/` },
  },
  {
    name: 'entity-list-imports-entities-only',
    severity: 'error',
    comment: 'database/entities.ts lists every TypeORM entity once (the app, the migrations and the tests load it): entity files only.',
    from: { path: '^backend/src/database/entities\\.ts$' },
    to: { path: '^backend/src/', pathNot: `^backend/src/(${any(SHARED)}/|[^/]+/entities/[^/]+\\.entity\\.ts$)` },
  },
  ...layerRules(),
  {
    name: 'feature-internals',
    severity: 'error',
    comment:
      "Another feature's repository and controllers are its own: call its exported service (docs/architecture.md#layers). " +
      'Its module, services, DTOs, messages, types, pure helpers and entities (as types, enums, or TypeORM relations) may be imported.',
    from: { path: '^backend/src/([^/]+)/', pathNot: `^backend/src/${any(ENTRY)}/` },
    to: { path: '^backend/src/[^/]+/.*\\.(repository|controller)\\.ts$', pathNot: '^backend/src/$1/' },
  },
  {
    name: 'module-registers-own-entities',
    severity: 'error',
    comment:
      "A Nest module registers (TypeOrmModule.forFeature) only its own feature's entities: another feature's table is written through that feature's service.",
    from: { path: '^backend/src/([^/]+)/[^/]+\\.module\\.ts$' },
    to: { path: '^backend/src/[^/]+/entities/', pathNot: '^backend/src/$1/', dependencyTypesNot: ['type-only'] },
  },
  {
    name: 'audit-written-by-audit',
    severity: 'error',
    comment:
      'Only the audit module writes the audit log: its subscribers turn domain events into entries through AuditWriter. Record an event (docs/events.md) and subscribe in audit/; read the log through AuditReader.',
    from: { path: '^backend/src/', pathNot: ['^backend/src/audit/', '^backend/src/database/entities\\.ts$'] },
    to: { path: ['^backend/src/audit/audit-writer\\.ts$', '^backend/src/audit/entities/'] },
  },
  {
    name: 'users-written-by-users',
    severity: 'error',
    comment:
      "Only users/ writes the users table (UsersService, UserLifecycleService): another module calls their services. Its repository (insertUsers, the locks, roles, bans, mutes) is users' own; " +
      'bin/seed-demo.ts writes its demo accounts through insertUsers. Raw SQL writing the table outside users/ is caught by scripts/lint-deps.mjs.',
    from: { path: '^backend/src/', pathNot: `^backend/src/(users|${any(ENTRY)})/` },
    to: { path: '^backend/src/users/users\\.repository\\.ts$' },
  },
  {
    name: 'entry-points-are-not-imported',
    severity: 'error',
    comment: 'main.ts, app.module.ts, app.factory.ts and bin/ put the app together; no module imports them.',
    from: { path: '^backend/src/[^/]+/', pathNot: `^backend/src/${any(ENTRY)}/` },
    to: { path: [`^backend/src/[^/]+\\.ts$`, `^backend/src/${any(ENTRY)}/`] },
  },
  {
    name: 'backend-imports-no-frontend',
    severity: 'error',
    comment: 'The server does not import browser or page code; what both need lives in isomorphic/.',
    from: { path: '^backend/' },
    to: { path: '^frontend/' },
  },
];

// ---- frontend/src -----------------------------------------------------------------------------

const frontendRules = [
  {
    name: 'feature-public-index',
    severity: 'error',
    comment:
      "A feature imports another feature only through that feature's index.ts (its public surface); what several features need goes to lib/ or components/.",
    from: { path: '^frontend/src/features/([^/]+)/' },
    to: { path: '^frontend/src/features/', pathNot: '^frontend/src/features/($1/|[^/]+/index\\.ts$)' },
  },
  {
    name: 'lib-and-components-import-no-feature',
    severity: 'error',
    comment: 'lib/ and components/ are beneath the features (features share through them): they import no feature, layout or page.',
    from: { path: '^frontend/src/(lib|components)/' },
    to: { path: '^frontend/src/(features|layouts|pages)/' },
  },
  {
    name: 'pages-are-not-imported',
    severity: 'error',
    comment: 'A page is a route (Astro renders it); what two pages share goes to a feature, a layout or lib/.',
    from: { path: '^frontend/src/', pathNot: '^frontend/src/pages/' },
    to: { path: '^frontend/src/pages/' },
  },
  {
    name: 'frontend-imports-backend-types-only',
    severity: 'error',
    comment: "Page and browser code imports the server's types (import type), never its code; a rule both run lives in isomorphic/.",
    from: { path: '^frontend/' },
    to: { path: '^backend/', dependencyTypesNot: ['type-only'] },
  },
];

// ---- isomorphic/ (compiled by both) ---------------------------------------------------------------

const sharedRules = [
  {
    name: 'shared-is-self-contained',
    severity: 'error',
    comment: 'isomorphic/ is compiled by the server and the pages: it imports neither.',
    from: { path: '^isomorphic/' },
    to: { path: '^(backend|frontend)/' },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A module that imports itself through others at run time: load order decides what it sees. Move what both need into a third module. ' +
        '(A cycle through an `import type`, such as the two ends of a TypeORM relation, is erased on compile and does not count.)',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    ...backendRules,
    ...frontendRules,
    ...sharedRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // `import type` counts: a type-only arrow up is still an arrow up (and the rules above say where it is allowed).
    tsPreCompilationDeps: true,
    exclude: { path: '(^|/)(generated|dist)/|\\.d\\.ts$' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.jsx', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
