import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@app/config';
import { ApiModule } from './api.module';
import { createOpenApiDocument } from './openapi';
import { loadOpenApiMetadata } from './openapi-plugin-metadata';

/**
 * Writes the OpenAPI document the API serves at /docs-json to the file named on the command line, without a database
 * or Redis: Nest's preview mode resolves the module graph and reads the controllers' metadata but creates no provider,
 * so nothing connects. The build turns it into the typed client's API types (scripts/generate-client.mjs), which the
 * console uses too.
 */
async function main(): Promise<void> {
  const [outputFile] = process.argv.slice(2);
  if (!outputFile) throw new Error('usage: node dist/apps/api/src/openapi-document.js <output.json>');
  // Placeholders only satisfy the config's checks: in preview mode no provider runs, so none of them is used.
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: 'postgresql://unused@127.0.0.1:1/unused',
    REDIS_URL: 'redis://127.0.0.1:1',
    ADMIN_API_KEY: randomBytes(24).toString('base64url'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  // The build compiles without the swagger plugin; its metadata comes from openapi-metadata.ts, as for the served API.
  await loadOpenApiMetadata();
  const app = await NestFactory.create(ApiModule.forRoot(config), { preview: true, logger: ['error'], abortOnError: false });
  writeFileSync(outputFile, `${JSON.stringify(createOpenApiDocument(app), null, 2)}\n`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
