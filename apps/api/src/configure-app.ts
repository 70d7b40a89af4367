import type { NestExpressApplication } from '@nestjs/platform-express';
import { json, type NextFunction, type Request, type Response } from 'express';
import { Logger } from 'nestjs-pino';
import type { AppConfig } from '@app/config';
import { ERROR_CATALOGUE } from '@app/contracts';
import { CredentialsBeforeBody, hasBody } from './auth/credentials-before-body';
import { refuseDeeplyNestedBodies } from './common/body-depth';
import { ErrorFilter } from './common/error.filter';
import { StorableTextPipe } from './common/storable-text.pipe';
import { dashboardDirectory, dashboardRouter } from './dashboard/dashboard-static';
import { createValidationPipe } from './common/validation';
import { securityHeaders } from './http/security-headers';
import { mountApiDocs } from './openapi';

const JSON_LIMIT = '1mb';
/** Media sends may carry their content inline as base64; only authenticated requests get this far. */
const MEDIA_JSON_LIMIT = '64mb';
const MEDIA_ROUTES = ['image', 'video', 'audio', 'voice', 'document', 'sticker'].map((kind) => `/messages/${kind}`);

/** Requests that carry a body must carry JSON; anything else would silently parse as "no body". */
function requireJsonBodies(req: Request, res: Response, next: NextFunction): void {
  if (hasBody(req) && !req.is('application/json')) {
    res.status(400).json(ERROR_CATALOGUE.invalid_body);
    return;
  }
  next();
}

/** The production HTTP pipeline; main.ts and the end-to-end tests both use it. */
export function configureApp(app: NestExpressApplication, config: AppConfig): NestExpressApplication {
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  // Every answer outside the static files is `Cache-Control: no-store`, so an ETag (a SHA-1 of each body) buys nothing.
  app.set('etag', false);
  app.use(securityHeaders());
  app.use(dashboardRouter(dashboardDirectory()));
  app.use(app.get(CredentialsBeforeBody).handler(MEDIA_ROUTES));
  app.use(requireJsonBodies);
  app.use(MEDIA_ROUTES, json({ limit: MEDIA_JSON_LIMIT, type: 'application/json' }));
  app.use(json({ limit: JSON_LIMIT, type: 'application/json' }));
  app.use(refuseDeeplyNestedBodies);
  app.useGlobalFilters(new ErrorFilter());
  app.useGlobalPipes(new StorableTextPipe(), createValidationPipe());
  mountApiDocs(app);
  return app;
}
