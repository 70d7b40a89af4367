// Whether `npm run build`'s output still matches the sources: `npm run dev` skips the build (30 s or more) when no
// file it reads has changed since the last build dev made. The fingerprint lists every source file with its size and
// modification time; it is written into dist/ so deleting dist/ (or any build outside dev) makes the next start build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SOURCE_DIRS = ['apps', 'libs', 'prisma'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];
const FINGERPRINT_FILE = join('dist', '.dev-build-fingerprint');
// Written by the build itself: counting them would make every build look stale to the next start.
const GENERATED_DIRS = new Set(['node_modules', 'generated', 'dist']);

function listFiles(root, dir, found) {
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!GENERATED_DIRS.has(entry.name)) listFiles(root, path, found);
    } else if (entry.isFile()) {
      found.push(path);
    }
  }
  return found;
}

export function sourceFingerprint(root) {
  const files = SOURCE_DIRS.filter((dir) => existsSync(join(root, dir))).flatMap((dir) => listFiles(root, dir, []));
  files.push(...SOURCE_FILES.filter((file) => existsSync(join(root, file))));
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    const { size, mtimeMs } = statSync(join(root, file));
    hash.update(`${relative(root, join(root, file))}\0${size}\0${mtimeMs}\n`);
  }
  return hash.digest('hex');
}

/** True when every output exists and the sources are those of the build recorded by `recordBuild`. */
export function buildIsFresh(root, outputs) {
  const file = join(root, FINGERPRINT_FILE);
  if (!existsSync(file) || outputs.some((output) => !existsSync(join(root, output)))) return false;
  return readFileSync(file, 'utf8').trim() === sourceFingerprint(root);
}

export function recordBuild(root, fingerprint) {
  writeFileSync(join(root, FINGERPRINT_FILE), `${fingerprint}\n`);
}
