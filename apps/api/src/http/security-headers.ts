import type { NextFunction, Request, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** JSON answers: nothing may be loaded, framed or sniffed on their behalf. */
const API_POLICY: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  frameguard: { action: 'deny' },
};

/**
 * Swagger UI: its own scripts and styles (it sets inline styles), same-origin fetches of `/docs-json`, inline SVG.
 * No `upgrade-insecure-requests`, so the page also works when served over plain http on a private network.
 */
const DOCS_POLICY: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  frameguard: { action: 'deny' },
};

/**
 * Security headers by path prefix: the first matching prefix gives the policy, the API policy covers the rest. A
 * front end served by the API (e.g. a dashboard under `/dashboard`) adds its own entry with the CSP it needs; every
 * policy keeps helmet's other headers (`X-Content-Type-Options: nosniff`, HSTS, Referrer-Policy, ...).
 */
export const SECURITY_HEADER_POLICIES: ReadonlyArray<{ prefix: string; options: HelmetOptions }> = [
  { prefix: '/docs', options: DOCS_POLICY },
];

/**
 * Responses may carry keys and secrets (new keys, instance settings), so no cache keeps any of them; the static files
 * of the docs are the exception.
 */
function noStore(req: Request, res: Response, next: NextFunction): void {
  if (!req.path.startsWith('/docs')) res.setHeader('Cache-Control', 'no-store');
  next();
}

export function securityHeaders(policies = SECURITY_HEADER_POLICIES): Middleware[] {
  const api = helmet(API_POLICY);
  const byPrefix = policies.map(({ prefix, options }) => ({ prefix, apply: helmet(options) }));
  const headers: Middleware = (req, res, next) => {
    const policy = byPrefix.find(
      ({ prefix }) => req.path === prefix || req.path.startsWith(`${prefix}/`) || req.path.startsWith(`${prefix}-`),
    );
    (policy?.apply ?? api)(req, res, next);
  };
  return [headers, noStore];
}
