#!/usr/bin/env node
// Fails when a module of apps/ or libs/ imports itself through others. Every import counts, `import type` and
// `import('...')` types included: a type-only cycle does no harm at run time, but it says the files cannot be read
// (or split) one without the other. Generated code (Prisma's client) is left out. Run by `npm run lint`.
import { readdirSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['apps', 'libs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'generated']);
const SOURCE_FILE = /\.(ts|tsx|mts|cts)$/;

function compilerOptions(tsconfigPath) {
  const { config } = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, dirname(tsconfigPath)).options;
}

const rootOptions = compilerOptions(join(root, 'tsconfig.json'));
const dashboardOptions = compilerOptions(join(root, 'apps/dashboard/tsconfig.json'));
const optionsFor = (file) => (file.startsWith(join(root, 'apps', 'dashboard') + sep) ? dashboardOptions : rootOptions);

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return SOURCE_FILE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(root, dir)));
const known = new Set(files);

/** Each file's imports among the checked files (imports, re-exports, `import type`, `import('...')`, `require`). */
const graph = new Map(
  files.map((file) => {
    const { importedFiles } = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, optionsFor(file), ts.sys).resolvedModule;
      if (resolved && !resolved.isExternalLibraryImport && known.has(resolved.resolvedFileName)) targets.add(resolved.resolvedFileName);
    }
    return [file, [...targets].sort()];
  }),
);

/** Tarjan's strongly connected components: every cycle lies inside one component of two or more files (or a self-import). */
function cyclicComponents() {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  const visit = (start) => {
    // Iterative, so a long import chain cannot overflow the call stack.
    const work = [[start, 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      const edges = graph.get(node);
      if (next < edges.length) {
        frame[1] += 1;
        const target = edges[next];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || graph.get(node).includes(node)) components.push(component.sort());
      }
    }
  };
  for (const file of files) if (!index.has(file)) visit(file);
  return components;
}

/** The shortest import chain from `start` back to itself, staying inside its component. */
function shortestCycle(start, members) {
  const previous = new Map();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const target of graph.get(node)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const chain = [node];
        while (chain[0] !== start) chain.unshift(previous.get(chain[0]));
        return [...chain, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

const components = cyclicComponents();
const name = (file) => relative(root, file).split(sep).join('/');
const cycles = new Map();
for (const component of components) {
  const members = new Set(component);
  for (const file of component) {
    const chain = shortestCycle(file, members).slice(0, -1);
    // One cycle however it is entered: rotate it to start at its first file in sort order.
    const first = chain.indexOf([...chain].sort()[0]);
    const rotated = [...chain.slice(first), ...chain.slice(0, first)];
    cycles.set(rotated.join('\n'), rotated);
  }
}

if (cycles.size === 0) {
  console.log(`import cycles: none among ${files.length} files of ${SOURCE_DIRS.join(' and ')}`);
  process.exit(0);
}
console.error(
  `import cycles: ${cycles.size} (in ${components.length} group${components.length === 1 ? '' : 's'} of files that import each other)`,
);
for (const chain of cycles.values()) console.error(`  ${[...chain, chain[0]].map(name).join('\n    -> ')}\n`);
process.exit(1);
