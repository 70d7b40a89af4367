import 'reflect-metadata';
import { Logger } from 'nestjs-pino';
import { ConfigError, loadConfig } from '@app/config';
import { exitWithin } from '@app/observability';
import { InstanceStatusStreams } from './account/instance-status-streams';
import { ConsoleSocketServer } from './console-socket/console-socket.server';
import { createApiApp } from './create-api-app';
import { EventStreamsService } from './events/event-streams.service';

/** Time kept after the requests in progress for closing Redis and PostgreSQL connections. */
const CLOSE_RESERVE_MS = 1_000;
/**
 * How long an idle keep-alive connection stays open. Node's 5 s default equals the idle timeout of Node's own pooled
 * clients, so a client would now and then send a request on a connection the API was closing at that moment and get
 * ECONNRESET (seen in the soak bench: a few in 90,000 sends). Longer than the clients' and load balancers' usual
 * idle timeouts (60 s), they close first. Shutdown closes idle connections at once whatever this is.
 */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

async function bootstrap(): Promise<void> {
  const config = loadConfig();
  const app = await createApiApp(config);
  await app.listen(config.port, '0.0.0.0');
  const httpServer = app.getHttpServer();
  httpServer.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // Must exceed the keep-alive timeout, or a request started just before it ends could be cut off by the headers timer.
  httpServer.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  const logger = app.get(Logger);

  exitWithin({
    timeoutMs: config.shutdownTimeoutMs,
    logger: { log: (message) => logger.log(message), error: (message) => logger.error(message) },
    run: async (deadline) => {
      // No new connections; idle keep-alive ones close now, busy ones once their request is answered.
      const server = app.getHttpServer();
      const served = new Promise<void>((resolve) => server.close(() => resolve()));
      // Streams never finish by themselves: end them all, so clients reconnect to another replica.
      app.get(EventStreamsService).closeAll();
      app.get(InstanceStatusStreams).closeAll();
      ConsoleSocketServer.of(app)?.closeAll();
      const reserveMs = Math.min(CLOSE_RESERVE_MS, deadline.remainingMs() / 4);
      // Connections whose stream or request has just ended turn idle after close() swept them once.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const answered = await deadline.settles(served, reserveMs);
      clearInterval(sweep);
      if (!answered) server.closeAllConnections();
      if (!(await deadline.settles(app.close()))) throw new Error('closing connections did not finish in time');
      if (!answered) throw new Error('requests still in progress at the deadline were cut off');
    },
  });
}

bootstrap().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
