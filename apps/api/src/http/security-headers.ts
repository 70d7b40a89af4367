import type { NextFunction, Request, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { DASHBOARD_PATH, DASHBOARD_SECURITY_POLICY } from '../dashboard/dashboard-static';

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

export interface PathPolicy {
  /** `/docs` matches `/docs`, `/docs/...` and `/docs-json`. */
  prefix: string;
  options: HelmetOptions;
  /** Static files that caches may keep; everything else is `Cache-Control: no-store`. */
  cacheable: boolean;
}

/**
 * Security headers by path prefix: the first matching prefix gives the policy, the API policy covers the rest. A
 * front end served by the API (e.g. a dashboard under `/dashboard`) adds its own entry with the CSP it needs; every
 * policy keeps helmet's other headers (`X-Content-Type-Options: nosniff`, HSTS, Referrer-Policy, ...).
 */
export const SECURITY_HEADER_POLICIES: readonly PathPolicy[] = [
  { prefix: '/docs', options: DOCS_POLICY, cacheable: true },
  // The web app sets its own Cache-Control: hashed assets are immutable, index.html is revalidated.
  { prefix: DASHBOARD_PATH, options: DASHBOARD_SECURITY_POLICY, cacheable: true },
];

function matches(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}-`);
}

/**
 * Helmet's headers by path, and `Cache-Control: no-store` on every answer outside the cacheable paths: API responses
 * may carry keys and secrets (new keys, instance settings), so no cache may keep any of them.
 */
export function securityHeaders(policies: readonly PathPolicy[] = SECURITY_HEADER_POLICIES): Middleware {
  const api = helmet(API_POLICY);
  const byPrefix = policies.map((policy) => ({ ...policy, apply: helmet(policy.options) }));
  return (req, res, next) => {
    const policy = byPrefix.find(({ prefix }) => matches(req.path, prefix));
    if (!policy?.cacheable) res.setHeader('Cache-Control', 'no-store');
    (policy?.apply ?? api)(req, res, next);
  };
}
