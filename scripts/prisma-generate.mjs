// Generates the Prisma client offline: `prisma generate` never runs the schema engine, but the CLI
// insists on finding one, so point it at any existing file when none is configured.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = existsSync('/bin/true') ? '/bin/true' : process.execPath;
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
const result = spawnSync(process.execPath, ['node_modules/prisma/build/index.js', 'generate'], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env,
});
if (result.status !== 0) {
  process.stdout.write(result.stdout ?? '');
  process.exit(result.status ?? 1);
}
