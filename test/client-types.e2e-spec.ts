import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The typed client's API types (libs/client/src/generated/openapi.ts, which the dashboard compiles against too) are
// generated from the OpenAPI document at build time; the committed copy, which `npm run typecheck` and a published
// package read, must be exactly what the built API generates. This is how CI fails on a stale client.
describe('the typed client’s generated API types', () => {
  it('are what the built API’s OpenAPI document generates', () => {
    const result = spawnSync(process.execPath, ['scripts/generate-client.mjs', '--check'], {
      cwd: join(__dirname, '..'),
      encoding: 'utf8',
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
