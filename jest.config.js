// Unit tests sit beside the code (*.spec.ts); repository tests (test/repositories/*.repo-spec.ts) need the PostgreSQL
// database and end-to-end tests (test/*.e2e-spec.ts) also Redis and the built apps, which scripts/test.mjs prepares.
const tsJest = [
  'ts-jest',
  {
    tsconfig: 'tsconfig.json',
    isolatedModules: false,
    diagnostics: { warnOnly: false },
    astTransformers: { before: ['<rootDir>/test/swagger-transformer.js'] },
  },
];

const moduleNameMapper = {
  '^@app/(config|contracts|database|messaging|observability|redis|security)$': '<rootDir>/libs/$1/src',
  // The dashboard imports single browser-safe contract files (apps/dashboard/vite.config.mjs has the same alias).
  '^@contracts/(.*)$': '<rootDir>/libs/contracts/src/$1',
};

// request-filtering-agent ships only as an ES module; Node runs it natively, Jest needs it compiled to CommonJS.
const esmPackages = ['request-filtering-agent', '@whiskeysockets/baileys'];
const esmToCommonJs = [
  'ts-jest',
  { tsconfig: { allowJs: true, module: 'commonjs', esModuleInterop: true }, isolatedModules: true, diagnostics: false },
];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest, [`node_modules/(${esmPackages.join('|')})/.+\\.js$`]: esmToCommonJs },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper,
  moduleFileExtensions: ['ts', 'js', 'json'],
};

module.exports = {
  testTimeout: 60_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,test}/**/*.spec.ts'] },
    // Each raw-SQL repository against the run's real, migrated PostgreSQL database: seconds, no apps started.
    { ...common, displayName: 'repositories', testMatch: ['<rootDir>/test/repositories/**/*.repo-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
