import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from '@app/config';
import { observeRequests } from '@app/observability';
import { CredentialsBeforeBody } from './auth/credentials-before-body';
import { ConsoleSocketServer } from './console-socket/console-socket.server';
import { ErrorFilter } from './common/error.filter';
import { StorableTextPipe } from './common/storable-text.pipe';
import { dashboardDirectory, dashboardRouter } from './dashboard/dashboard-static';
import { createValidationPipe } from './common/validation';
import { bodyHandling } from './http/body-handling';
import { securityHeaders } from './http/security-headers';
import { mountApiDocs } from './openapi';

/** The production HTTP pipeline; main.ts and the end-to-end tests both use it. */
export function configureApp(app: NestExpressApplication, config: AppConfig): NestExpressApplication {
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Every answer outside the static files is `Cache-Control: no-store`, so an ETag (a SHA-1 of each body) buys nothing.
  app.set('etag', false);
  observeRequests(app);
  app.use(securityHeaders());
  app.use(dashboardRouter(dashboardDirectory()));
  app.use(bodyHandling(app.get(CredentialsBeforeBody)));
  app.useGlobalFilters(new ErrorFilter());
  app.useGlobalPipes(new StorableTextPipe(), createValidationPipe());
  mountApiDocs(app);
  ConsoleSocketServer.attach(app);
  return app;
}
