// Unit tests sit beside the code (*.spec.ts); repository tests (test/repositories/*.repo-spec.ts) need the PostgreSQL
// database and end-to-end tests (test/*.e2e-spec.ts) also Redis and the built apps, which scripts/test.mjs prepares.
// SWC compiles without type-checking (the type-check is its own CI step), an order of magnitude faster than ts-jest's
// type-aware compile, which rebuilt its program for every new file. The swagger CLI plugin needs a type checker, so
// the API loads the plugin's metadata from apps/api/src/openapi-metadata.ts instead (openapi-plugin-metadata.ts).
const swc = ['@swc/jest', { ...require('./scripts/lib/swc-typescript.js'), sourceMaps: 'inline' }];

const moduleNameMapper = {
  '^@app/(config|contracts|database|messaging|observability|redis|security)$': '<rootDir>/libs/$1/src',
  // The dashboard imports single browser-safe contract files (apps/dashboard/vite.config.mjs has the same alias).
  '^@contracts/(.*)$': '<rootDir>/libs/contracts/src/$1',
  // The typed client (libs/client) is published as ES modules, so its sources import each other as `./name.js`.
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

// request-filtering-agent ships only as an ES module; Node runs it natively, Jest needs it compiled to CommonJS.
const esmPackages = ['request-filtering-agent', '@whiskeysockets/baileys'];
const esmToCommonJs = ['@swc/jest', { jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' }, module: { type: 'commonjs' } }];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc, [`node_modules/(${esmPackages.join('|')})/.+\\.js$`]: esmToCommonJs },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'json'],
};

// Each Jest worker gets a database cloned from the run's migrated template and a Redis prefix of its own, and keeps the
// API and worker processes its world suites share (test/support/jest-environment.ts).
const perWorker = { testEnvironment: '<rootDir>/test/support/jest-environment.ts' };

module.exports = {
  testTimeout: 60_000,
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'] },
    // Each raw-SQL repository against the run's real, migrated PostgreSQL database: seconds, no apps started.
    { ...common, ...perWorker, displayName: 'repositories', testMatch: ['<rootDir>/test/repositories/**/*.repo-spec.ts'] },
    {
      ...common,
      ...perWorker,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/between-suites.ts'],
    },
  ],
};
