import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { AppConfig } from './app-config';
import { loadConfig } from './load-config';

export const APP_CONFIG = Symbol('APP_CONFIG');

@Global()
@Module({})
export class ConfigModule {
  /** Tests pass a config object; the apps load it from the environment. */
  static forRoot(config: AppConfig = loadConfig()): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
  }
}
