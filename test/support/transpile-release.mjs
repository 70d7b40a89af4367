#!/usr/bin/env node
// Compiles a checkout of this project (the previous release, test/support/previous-release.ts) into its dist/ the way
// `nest build api` lays it out, with SWC and without type-checking (the release was type-checked when it was made):
// seconds instead of a minute of tsc on a loaded CI machine. The same SWC settings run the API in-process in every e2e
// suite (jest.config.js), and the API's OpenAPI metadata comes from its committed openapi-metadata.ts, so the swagger
// compiler plugin is not needed. A process of its own, so SWC's threads never share the test runner's.
//   node test/support/transpile-release.mjs <root>
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { transformFile } from '@swc/core';

const root = resolve(process.argv[2]);

/** The sources tsconfig.build.json compiles: both apps and the server libraries, no tests. */
function buildSources() {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing' && entry.name !== 'node_modules') walk(path);
      } else if (entry.name.endsWith('.ts') && !/\.(spec|e2e-spec|d)\.ts$/.test(entry.name)) found.push(path);
    }
  };
  walk(join(root, 'apps', 'api', 'src'));
  walk(join(root, 'apps', 'worker', 'src'));
  for (const lib of readdirSync(join(root, 'libs'))) if (lib !== 'client') walk(join(root, 'libs', lib, 'src'));
  return found;
}

const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
const aliases = Object.entries(compilerOptions.paths).map(([alias, [target]]) => ({ alias, target }));

/** tsconfig's path aliases (`@app/config` → libs/config/src) as relative requires inside dist/, as nest build writes them. */
function resolveAlias(name, out) {
  for (const { alias, target } of aliases) {
    const wildcard = alias.endsWith('/*') && name.startsWith(alias.slice(0, -1));
    if (name !== alias && !wildcard) continue;
    const resolved = join(root, 'dist', wildcard ? target.replace('*', name.slice(alias.length - 1)) : target);
    const path = relative(dirname(out), resolved);
    return path.startsWith('.') ? path : `./${path}`;
  }
  return name;
}

async function compileOne(file) {
  const { code } = await transformFile(file, {
    swcrc: false,
    configFile: false,
    sourceMaps: false,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      target: 'es2022',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  const out = join(root, 'dist', relative(root, file)).replace(/\.ts$/, '.js');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    code.replace(/require\("([^"]+)"\)/g, (_call, name) => `require(${JSON.stringify(resolveAlias(name, out))})`),
  );
}

const files = buildSources();
for (let i = 0; i < files.length; i += 32) await Promise.all(files.slice(i, i + 32).map(compileOne));
console.log(`transpiled ${files.length} files into ${join(root, 'dist')}`);
