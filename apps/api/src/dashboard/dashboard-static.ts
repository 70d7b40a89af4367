import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { HelmetOptions } from 'helmet';

export const DASHBOARD_PATH = '/dashboard';

/**
 * The dashboard's content security policy: everything from this origin only, no inline scripts or styles, no
 * framing, no plugins. `data:` images are the QR codes the page renders itself; profile pictures come from WhatsApp's
 * picture host, the one other origin allowed (for images only). No upgrade-insecure-requests: a
 * self-hosted gateway reached over plain HTTP on a private network must still load its own assets.
 */
export const DASHBOARD_SECURITY_POLICY: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'https://pps.whatsapp.net'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'same-origin' },
};

/** Where `npm run build` puts the web app: dist/dashboard beside dist/apps (this file is dist/apps/api/src/dashboard). */
export function dashboardDirectory(): string | null {
  const candidates = [join(__dirname, '..', '..', '..', '..', 'dashboard'), join(process.cwd(), 'dist', 'dashboard')];
  return candidates.find((candidate) => existsSync(join(candidate, 'index.html'))) ?? null;
}

/** A path the single-page app routes itself (anything without a file extension), answered with index.html. */
function isAppRoute(path: string): boolean {
  return !/\.[a-z0-9]+$/i.test(path);
}

/**
 * Serves the built web app under /dashboard (its security headers come from SECURITY_HEADER_POLICIES); app routes fall back to index.html so a
 * reload or a shared link (an invite) opens the right page. `/` redirects there. Only GET and HEAD are answered.
 */
export function dashboardRouter(directory: string | null): RequestHandler {
  const router = dashboardRoutes(directory);
  // Every API request passes here: only `/` and `/dashboard...` enter the router (the `/dashboard` prefix is matched
  // case-insensitively, as the router's own routes are).
  return (req, res, next) => {
    const path = req.path;
    if (path === '/' || path.slice(0, DASHBOARD_PATH.length).toLowerCase() === DASHBOARD_PATH) router(req, res, next);
    else next();
  };
}

function dashboardRoutes(directory: string | null): express.Router {
  const router = express.Router();
  router.get('/', (_req, res) => res.redirect(302, `${DASHBOARD_PATH}/`));
  if (!directory) {
    router.get(/^\/dashboard(\/.*)?$/, (_req, res) => {
      res.status(404).json({ status: 404, detail: 'not found: the dashboard is not built on this server (npm run build)' });
    });
    return router;
  }
  const index = join(directory, 'index.html');
  router.use(
    DASHBOARD_PATH,
    express.static(directory, {
      index: false,
      redirect: false,
      fallthrough: true,
      // File names under assets/ carry a content hash: they never change.
      setHeaders: (res, path) =>
        res.setHeader('Cache-Control', path.includes(`${join(directory, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache'),
    }),
  );
  router.get(/^\/dashboard(\/.*)?$/, (req: Request, res: Response, next: NextFunction) => {
    if (!isAppRoute(req.path)) return next();
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(index);
  });
  return router;
}
