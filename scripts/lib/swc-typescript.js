// How SWC compiles the project's TypeScript, for Jest (jest.config.js) and for the build (scripts/build-apps.mjs) alike,
// so the code the tests load and the code operators run are one compilation.
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};
