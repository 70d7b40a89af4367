import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const PACKAGE_DIR = join(ROOT, 'libs', 'client');
const NAME = '@messaging-gateway/client';
/** Its run-time dependencies, plus the Node types a TypeScript consumer compiles with. */
const LINKED_DEPENDENCIES = ['openapi-fetch', 'openapi-typescript-helpers', '@types/node', 'undici-types'];

/** The client as a user gets it: `npm pack` of libs/client, unpacked into a consumer project's node_modules. */
export interface InstalledClient {
  /** The consumer project: scripts placed here import the package by name. */
  dir: string;
  /** Every file of the tarball, relative to the package root. */
  files: string[];
  /** The package's CommonJS entry, loaded as a consumer's `require` would. */
  load(): typeof import('../../libs/client/src');
  remove(): void;
}

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/**
 * The package's tarball: the one scripts/test.mjs packed for the run (`TEST_CLIENT_TARBALL`), or one packed now into
 * `dir`. `npm run build` has built dist/ already, so the prepack build (two tsc runs) is skipped.
 */
function tarball(dir: string): string {
  const packed = process.env.TEST_CLIENT_TARBALL;
  if (packed) return packed;
  const output = run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], PACKAGE_DIR);
  const [{ filename }] = JSON.parse(output) as { filename: string }[];
  return join(dir, filename);
}

/**
 * Installs the packed package without the network: the tarball is unpacked where npm would put it and the
 * dependencies are linked from the repository's node_modules.
 */
export function installPackedClient(): InstalledClient {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-client-'));
  const file = tarball(dir);
  const files = run('tar', ['-tzf', file], dir)
    .split('\n')
    .filter((path) => path !== '' && !path.endsWith('/'))
    .map((path) => path.replace(/^package\//, ''));
  const installed = join(dir, 'node_modules', NAME);
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', file, '-C', installed, '--strip-components=1'], dir);
  for (const dependency of LINKED_DEPENDENCIES) {
    mkdirSync(join(dir, 'node_modules', dependency, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dependency), join(dir, 'node_modules', dependency), 'dir');
  }
  return {
    dir,
    files: files.sort(),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    load: () => require(installed) as typeof import('../../libs/client/src'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
