// Writes apps/api/src/openapi-metadata.ts: what the @nestjs/swagger CLI plugin reads from the API's types (DTO
// properties, response types, doc comments), as plain data. The build applies the plugin itself; Jest compiles with
// SWC, which has no type checker to run the plugin, so the OpenAPI document loads this file instead
// (SwaggerModule.loadPluginMetadata). Run by `npm run build`; the file is committed so the type-check sees it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { PluginMetadataGenerator } = require('@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator');
const { ReadonlyVisitor } = require('@nestjs/swagger/plugin');

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sourceDir = join(root, 'apps', 'api', 'src');
const nestCli = require(join(root, 'nest-cli.json'));
const swaggerOptions = nestCli.compilerOptions.plugins.find((plugin) => plugin.name === '@nestjs/swagger').options;

process.chdir(root);
new PluginMetadataGenerator().generate({
  visitors: [new ReadonlyVisitor({ ...swaggerOptions, pathToSource: sourceDir })],
  outputDir: sourceDir,
  filename: 'openapi-metadata.ts',
  tsconfigPath: 'tsconfig.build.json',
  watch: false,
  printDiagnostics: false,
});
