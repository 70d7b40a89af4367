// Builds the typed client package (libs/client) into libs/client/dist: an ES module build and a CommonJS build, each
// with its declarations, so `import` and `require` consumers both get types. `npm run build` runs it after
// `npm run generate:client`; `npm pack ./libs/client` runs it too (its prepack). The CommonJS folder gets its own
// package.json saying so, because the package itself is `"type": "module"`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const client = join(root, 'libs', 'client');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

rmSync(join(client, 'dist'), { recursive: true, force: true });
for (const config of ['tsconfig.build.json', 'tsconfig.cjs.json']) {
  const result = spawnSync(process.execPath, [tsc, '-p', join(client, config)], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
mkdirSync(join(client, 'dist', 'cjs'), { recursive: true });
writeFileSync(join(client, 'dist', 'cjs', 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

// Linked into the repository's node_modules as npm workspaces would, so examples/ (which import the package by name,
// as a user's code does) run in place after a build.
const link = join(root, 'node_modules', '@messaging-gateway', 'client');
mkdirSync(dirname(link), { recursive: true });
rmSync(link, { recursive: true, force: true });
symlinkSync(join('..', '..', 'libs', 'client'), link, 'dir');
console.log('build-client: libs/client/dist/esm and libs/client/dist/cjs written; linked as node_modules/@messaging-gateway/client');
