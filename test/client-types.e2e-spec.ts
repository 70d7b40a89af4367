import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The console's API types are generated from the OpenAPI document at build time; the committed copy (which
// `npm run typecheck` reads before any build) must be exactly what the built API generates, or the console could
// type-check against an API that no longer exists.
describe('console API types', () => {
  it('are what the built API’s OpenAPI document generates', () => {
    const result = spawnSync(process.execPath, ['scripts/generate-console-types.mjs', '--check'], {
      cwd: join(__dirname, '..'),
      encoding: 'utf8',
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
