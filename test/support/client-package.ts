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
 * Packs the package (its prepack builds dist) and installs the tarball without the network: the tarball is unpacked
 * where npm would put it and the dependencies are linked from the repository's node_modules.
 */
export function installPackedClient(): InstalledClient {
  const dir = mkdtempSync(join(tmpdir(), 'mgw-client-'));
  const output = run('npm', ['pack', '--json', '--pack-destination', dir], PACKAGE_DIR);
  // The prepack build prints before npm's JSON report.
  const [packed] = JSON.parse(output.slice(output.indexOf('\n[') + 1)) as {
    filename: string;
    files: { path: string }[];
  }[];
  const installed = join(dir, 'node_modules', NAME);
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', join(dir, packed.filename), '-C', installed, '--strip-components=1'], dir);
  for (const dependency of LINKED_DEPENDENCIES) {
    mkdirSync(join(dir, 'node_modules', dependency, '..'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dependency), join(dir, 'node_modules', dependency), 'dir');
  }
  return {
    dir,
    files: packed.files.map((file) => file.path).sort(),
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    load: () => require(installed) as typeof import('../../libs/client/src'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
