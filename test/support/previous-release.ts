import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');

/**
 * The release this one must run beside during a rolling upgrade (README, Operations; docs/upgrades.md): the commit the
 * current release started from. Move it forward when a release is cut.
 */
export const PREVIOUS_RELEASE = '04332bd';

/** Bump when `previousReleaseRoot` builds differently: the cache directory's name carries it. */
const BUILD_RECIPE = 'swc3';

const run = promisify(execFile);

interface LockedPackage {
  version?: string;
  dev?: boolean;
}

async function git(...args: string[]): Promise<string> {
  return (await run('git', args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 })).stdout;
}

/** Runs a command in `cwd` and fails with its output, so a broken old build says why. */
function mustRun(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} in ${cwd} exited with ${code}:\n${output}`)),
    );
  });
}

/**
 * The runtime packages the previous release locked at a version the current node_modules does not have. Added packages
 * do not matter (the old code never loads them); dev-only ones neither (the old build runs no dev tool but tsc and nest).
 */
async function runtimeDrift(commit: string): Promise<string[]> {
  const old = (JSON.parse(await git('show', `${commit}:package-lock.json`)) as { packages: Record<string, LockedPackage> }).packages;
  const now = (JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> }).packages;
  return Object.entries(old)
    .filter(([path, locked]) => path !== '' && !locked.dev && now[path]?.version !== locked.version)
    .map(([path, locked]) => `${path.replace(/^node_modules\//, '')} ${locked.version ?? '?'} → ${now[path]?.version ?? 'absent'}`);
}

/**
 * The previous release's API and worker, built once per machine under node_modules/.cache (keyed by the commit, so a CI
 * run on a clean clone builds it once and later suites and runs reuse it). Its tree comes from `git archive`; it shares
 * this checkout's node_modules while its runtime packages are the same versions, and gets its own `npm ci` otherwise.
 * Only the Prisma client and the two apps are built (with SWC: scripts/build-apps.mjs): no dashboard, no client.
 * Returns the root to run `dist/apps/{api,worker}/src/main.js` from.
 */
export async function previousReleaseRoot(commit = PREVIOUS_RELEASE): Promise<string> {
  const cache = join(ROOT, 'node_modules', '.cache', 'previous-release');
  // Keyed by the commit and by how it is built, so a change to the recipe below never reuses an older build.
  const dir = join(cache, `${commit}-${BUILD_RECIPE}`);
  if (existsSync(join(dir, '.built'))) return dir;

  try {
    await git('cat-file', '-e', `${commit}^{commit}`);
  } catch {
    throw new Error(
      `the previous release ${commit} is not in this clone's history (a shallow clone?): run \`git fetch --unshallow\` ` +
        `(or clone without --depth) so test/rolling-upgrade.e2e-spec.ts can build it`,
    );
  }
  const building = join(cache, `${commit}-${BUILD_RECIPE}.building-${process.pid}`);
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  try {
    await mustRun('sh', ['-c', `git -C "${ROOT}" archive ${commit} | tar -x -C "${building}"`], ROOT);
    const drift = await runtimeDrift(commit);
    if (drift.length === 0) {
      symlinkSync(relative(dir, join(ROOT, 'node_modules')), join(building, 'node_modules'));
      await mustRun(process.execPath, ['scripts/prisma-generate.mjs'], building);
    } else {
      // Its own packages, from the npm cache where it can; its postinstall generates the Prisma client.
      await mustRun('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], building);
    }
    await mustRun(process.execPath, [join(ROOT, 'scripts', 'build-apps.mjs'), building], ROOT);
    writeFileSync(join(building, '.built'), `${commit}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
  return dir;
}
