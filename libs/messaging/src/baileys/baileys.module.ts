import { Module } from '@nestjs/common';
import { pino } from 'pino';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ObservabilityModule } from '@app/observability';
import { MessagingModule } from '../messaging.module';
import { loadBaileys } from './baileys-library';
import { BAILEYS_PORTS } from './baileys-ports';
import { BaileysDriver } from './session/baileys.driver';
import { DEFAULT_BAILEYS_WAITS, type BaileysLibraryLoader, type BaileysLogger, type BaileysSettings } from './session/baileys-settings';
import { BAILEYS_LIBRARY, BAILEYS_LOGGER, BAILEYS_SETTINGS } from './session/baileys-tokens';
import { libraryLoader, testMediaDispatcher, testMediaRoute, testNetworkRootKey } from './session/test-network-seam';

function baileysSettings(config: AppConfig): BaileysSettings {
  return {
    webSocketUrl: config.baileysWebSocketUrl,
    ...DEFAULT_BAILEYS_WAITS,
    mediaDispatcher: testMediaDispatcher(config.baileysTestNetwork, config.baileysWebSocketUrl),
    routeMedia: testMediaRoute(config.baileysTestNetwork, config.baileysWebSocketUrl),
    undecryptableAfterMs: config.undecryptableAfterSeconds * 1000,
  };
}

/** Baileys narrates every connection step at `info`; at the default level only what needs attention gets through. */
function baileysLogger(config: AppConfig): BaileysLogger {
  return pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel, base: { app: 'worker', component: 'baileys' } });
}

/** The real-network driver with the real Baileys package (loaded on the first connect, never in unit tests). */
@Module({
  // The operations share the messaging module's helpers (e.g. the SSRF-safe status media loader).
  imports: [MessagingModule, ObservabilityModule],
  providers: [
    BaileysDriver,
    {
      provide: BAILEYS_LIBRARY,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): BaileysLibraryLoader =>
        libraryLoader(loadBaileys, testNetworkRootKey(config.baileysTestNetwork, config.baileysWebSocketUrl)),
    },
    { provide: BAILEYS_SETTINGS, inject: [APP_CONFIG], useFactory: baileysSettings },
    { provide: BAILEYS_LOGGER, inject: [APP_CONFIG], useFactory: baileysLogger },
    ...BAILEYS_PORTS,
  ],
  exports: [BaileysDriver],
})
export class BaileysModule {}
