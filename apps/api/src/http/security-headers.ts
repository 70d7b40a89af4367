import type { NextFunction, Request, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { DASHBOARD_PATH, DASHBOARD_SECURITY_POLICY } from '../dashboard/dashboard-static';

type Middleware = (req: Request, res: Response, next: NextFunction) => void;

/** JSON answers: nothing may be loaded, framed or sniffed on their behalf. */
export const API_POLICY: HelmetOptions = {
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
 * The headers helmet sets for a policy, read once by running it against a response that only records them: our
 * policies depend on nothing in the request, and a chain of a dozen middlewares per request cost more than the
 * headers themselves. Refuses a policy helmet would not finish synchronously (it could depend on the request).
 */
export function helmetHeaders(options: HelmetOptions): ReadonlyArray<readonly [string, string | null]> {
  // null: a header helmet removes (X-Powered-By).
  const headers: Array<readonly [string, string | null]> = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: (name: string) => headers.push([name, null]),
  };
  let finished = false;
  helmet(options)({} as Request, recorder as unknown as Response, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error('helmet refused the policy');
    finished = true;
  });
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  return headers;
}

/**
 * Helmet's headers by path, and `Cache-Control: no-store` on every answer outside the cacheable paths: API responses
 * may carry keys and secrets (new keys, instance settings), so no cache may keep any of them.
 */
export function securityHeaders(policies: readonly PathPolicy[] = SECURITY_HEADER_POLICIES): Middleware {
  const api = [['Cache-Control', 'no-store'] as const, ...helmetHeaders(API_POLICY)];
  const byPrefix = policies.map((policy) => ({
    prefix: policy.prefix,
    headers: [...(policy.cacheable ? [] : [['Cache-Control', 'no-store'] as const]), ...helmetHeaders(policy.options)],
  }));
  return (req, res, next) => {
    const path = req.path;
    const headers = byPrefix.find(({ prefix }) => matches(path, prefix))?.headers ?? api;
    for (const [name, value] of headers) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}
