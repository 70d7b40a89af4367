import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { transformFile } from '@swc/core';

const ROOT = join(__dirname, '..', '..');

/**
 * The release this one must run beside during a rolling upgrade (README, Operations; docs/upgrades.md): the commit the
 * current release started from. Move it forward when a release is cut.
 */
export const PREVIOUS_RELEASE = '04332bd';

/** Bump when `previousReleaseRoot` builds differently: the cache directory's name carries it. */
const BUILD_RECIPE = 'swc1';

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

/** The sources `nest build api` compiles (tsconfig.build.json): both apps and the server libraries, no tests. */
function buildSources(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
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

/**
 * Compiles the previous release's apps into its dist/ the way `nest build api` lays them out, with SWC and without
 * type-checking (the release was type-checked when it was made): seconds instead of a minute of tsc on a loaded CI
 * machine. The same SWC settings run the API in-process in every e2e suite (jest.config.js), and the app's OpenAPI
 * metadata comes from its committed openapi-metadata.ts, so the swagger compiler plugin is not needed either.
 */
async function transpile(root: string): Promise<void> {
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  const aliases = Object.entries(compilerOptions.paths).map(([alias, [target]]) => ({ alias, target }));
  // tsconfig's path aliases (`@app/config` → libs/config/src) as relative requires inside dist/, as nest build writes
  // them; anything else (packages, relative paths) stays as it is.
  const resolveAlias = (name: string, out: string): string => {
    for (const { alias, target } of aliases) {
      const wildcard = alias.endsWith('/*') && name.startsWith(alias.slice(0, -1));
      if (name !== alias && !wildcard) continue;
      const resolved = join(root, 'dist', wildcard ? target.replace('*', name.slice(alias.length - 1)) : target);
      const path = relative(dirname(out), resolved);
      return path.startsWith('.') ? path : `./${path}`;
    }
    return name;
  };
  const files = buildSources(root);
  const compileOne = async (file: string) => {
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
      code.replace(/require\("([^"]+)"\)/g, (call, name: string) => `require(${JSON.stringify(resolveAlias(name, out))})`),
    );
  };
  for (let i = 0; i < files.length; i += 32) await Promise.all(files.slice(i, i + 32).map(compileOne));
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
 * Only the Prisma client and the two apps are built (with SWC, see `transpile`): no dashboard, no client.
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
    await transpile(building);
    writeFileSync(join(building, '.built'), `${commit}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(building, dir);
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  }
  return dir;
}
