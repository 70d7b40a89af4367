#!/usr/bin/env node
// Compiles the API, the worker and the server libraries into dist/ (dist/apps/{api,worker}/src/main.js), with SWC and
// without type-checking: `npm run typecheck` is the one type-check, so the build does not analyse every source again
// (tsc through `nest build` did, about a minute on this project's 2-core machines; SWC takes seconds). The swagger
// compiler plugin needs a type checker, so the API reads what it would have written from the committed
// apps/api/src/openapi-metadata.ts, which `npm run typecheck` keeps current (apps/api/src/openapi-plugin-metadata.ts). Jest compiles the same sources with the same SWC settings (jest.config.js),
// so the apps the e2e suites spawn and the API they run in-process are one compilation.
// Also builds the previous release's checkout for the rolling-upgrade suite (test/support/previous-release.ts):
//   node scripts/build-apps.mjs [root]
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';
import swcTypeScript from './lib/swc-typescript.js';

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
const started = Date.now();

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

/** tsconfig's path aliases (`@app/config` → libs/config/src) as relative requires inside dist/, as nest build wrote them. */
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
  const out = join(root, 'dist', relative(root, file)).replace(/\.ts$/, '.js');
  const { code, map } = await transformFile(file, {
    swcrc: false,
    configFile: false,
    // Stack traces in the operators' logs point at the TypeScript lines, as tsc's source maps did.
    sourceMaps: true,
    sourceFileName: relative(dirname(out), file),
    ...swcTypeScript,
  });
  mkdirSync(dirname(out), { recursive: true });
  const rewritten = code.replace(/require\("([^"]+)"\)/g, (_call, name) => `require(${JSON.stringify(resolveAlias(name, out))})`);
  writeFileSync(out, `${rewritten}\n//# sourceMappingURL=${basename(out)}.map\n`);
  writeFileSync(`${out}.map`, map);
}

// As `nest build` with deleteOutDir: no file of a removed source survives. The dashboard (vite) and the client have
// folders of their own and are left alone.
for (const folder of ['apps', 'libs']) rmSync(join(root, 'dist', folder), { recursive: true, force: true });
const files = buildSources();
for (let i = 0; i < files.length; i += 32) await Promise.all(files.slice(i, i + 32).map(compileOne));
console.log(`build-apps: compiled ${files.length} files into ${join(root, 'dist')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
