import { json, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ERROR_CATALOGUE } from '@app/contracts';
import { hasBody, type CredentialsBeforeBody } from '../auth/credentials-before-body';
import { refuseDeeplyNestedBodies } from '../common/body-depth';

const JSON_LIMIT = '1mb';
/** Media sends may carry their content inline as base64; only authenticated requests get this far. */
const MEDIA_JSON_LIMIT = '64mb';
export const MEDIA_ROUTES = ['image', 'video', 'audio', 'voice', 'document', 'sticker'].map((kind) => `/messages/${kind}`);

/** Requests that carry a body must carry JSON; anything else would silently parse as "no body". */
function requireJsonBodies(req: Request, res: Response, next: NextFunction): void {
  if (!req.is('application/json')) {
    res.status(400).json(ERROR_CATALOGUE.invalid_body);
    return;
  }
  next();
}

/** Whether the path is under a media route, matched as Express matches a mount path (any case, whole segments). */
function isMediaRoute(path: string): boolean {
  const lower = path.toLowerCase();
  return MEDIA_ROUTES.some((route) => lower === route || lower.startsWith(`${route}/`));
}

/** Runs the handlers one after the other, each on the previous one's `next()`; an error skips the rest. */
function inSeries(handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error) return next(error);
      const handler = handlers[index++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

/**
 * Everything about a request's body as one middleware, which a request without a body (every GET) passes at once: the
 * key is checked before a byte is read (`CredentialsBeforeBody`), only JSON is accepted, it is parsed with the limit
 * of its route and refused when nested too deeply.
 */
export function bodyHandling(credentials: CredentialsBeforeBody): RequestHandler {
  const media = json({ limit: MEDIA_JSON_LIMIT, type: 'application/json' });
  const plain = json({ limit: JSON_LIMIT, type: 'application/json' });
  const withBody = inSeries([
    credentials.handler(MEDIA_ROUTES),
    requireJsonBodies,
    (req, res, next) => (isMediaRoute(req.path) ? media : plain)(req, res, next),
    refuseDeeplyNestedBodies,
  ]);
  return (req, res, next) => (hasBody(req) ? withBody(req, res, next) : next());
}
