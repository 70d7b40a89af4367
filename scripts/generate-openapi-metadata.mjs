// Writes apps/api/src/openapi-metadata.ts: what the @nestjs/swagger CLI plugin reads from the API's types (DTO
// properties, response types, doc comments), as plain data. Neither the build (SWC, scripts/build-apps.mjs) nor Jest
// runs the plugin, since both compile without a type checker; the API loads this file instead
// (apps/api/src/openapi-plugin-metadata.ts). The file is committed: `npm run typecheck` (scripts/typecheck.mjs) produces
// it from the same analysis that checks the types, rewrites it when the API's types changed, and fails until the
// rewritten file is committed. Run alone (`node scripts/generate-openapi-metadata.mjs`), it analyses the API itself.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { PluginMetadataGenerator } = require('@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator');
const { ReadonlyVisitor } = require('@nestjs/swagger/plugin');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = join(root, 'apps', 'api', 'src');
const FILE_NAME = 'openapi-metadata.ts';
export const METADATA_FILE = join(sourceDir, FILE_NAME);

/**
 * Brings the metadata file up to date from `program` (a TypeScript program that includes the API's sources), or from
 * an analysis of tsconfig.build.json without one. Returns whether the file changed.
 */
export function refreshOpenApiMetadata(program = undefined) {
  const swaggerOptions = require(join(root, 'nest-cli.json')).compilerOptions.plugins.find(
    (plugin) => plugin.name === '@nestjs/swagger',
  ).options;
  const outputDir = mkdtempSync(join(tmpdir(), 'mgw-openapi-metadata-'));
  const previousDir = process.cwd();
  try {
    process.chdir(root);
    new PluginMetadataGenerator().generate({
      visitors: [new ReadonlyVisitor({ ...swaggerOptions, pathToSource: sourceDir })],
      outputDir,
      filename: FILE_NAME,
      ...(program ? { tsProgramRef: program } : { tsconfigPath: 'tsconfig.build.json', watch: false, printDiagnostics: false }),
    });
    const generated = readFileSync(join(outputDir, FILE_NAME), 'utf8');
    let committed = '';
    try {
      committed = readFileSync(METADATA_FILE, 'utf8');
    } catch {
      // First generation.
    }
    if (generated === committed) return false;
    writeFileSync(METADATA_FILE, generated);
    return true;
  } finally {
    process.chdir(previousDir);
    rmSync(outputDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(refreshOpenApiMetadata() ? `${METADATA_FILE} updated` : `${METADATA_FILE} is up to date`);
}
