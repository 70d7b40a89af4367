import type { INestApplication } from '@nestjs/common';
import { REQUEST_LOGGING, type requestLogging } from './logging';
import { HttpMetricsMiddleware } from './metrics';

/**
 * Mounts the request line and the request timing in front of everything else the app mounts, so requests refused by
 * an earlier middleware (a key checked before the body is read, say) are logged and counted too. Plain Express
 * middleware at `/`: Nest's consumer would mount them under a `/{*path}` pattern, matched on every request.
 */
export function observeRequests(app: INestApplication): void {
  app.use(app.get<ReturnType<typeof requestLogging>>(REQUEST_LOGGING));
  const metrics = app.get(HttpMetricsMiddleware);
  app.use(metrics.use.bind(metrics));
}
