import 'reflect-metadata';
import { ConfigError, loadConfig } from '@app/config';
import { createApiApp } from './create-api-app';

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createApiApp(config);
  await app.listen(config.port, '0.0.0.0');
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
