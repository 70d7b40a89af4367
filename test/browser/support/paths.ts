import { join } from 'node:path';

export const REPOSITORY_ROOT = join(__dirname, '..', '..', '..');

/** Everything the browser tier writes; git-ignored with the rest of `.test-tmp/`. */
export const BROWSER_OUTPUT_DIR = join(REPOSITORY_ROOT, '.test-tmp', 'browser');

/** Named screenshots a test takes on purpose (failure screenshots go to `results/` beside it). */
export const SCREENSHOTS_DIR = join(BROWSER_OUTPUT_DIR, 'screenshots');

/** Debian's Chromium unless CHROMIUM_PATH names another build. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}
