import type { NextFunction, Request, Response } from 'express';
import { ERROR_CATALOGUE } from '@app/contracts';
import { apiKeyKind } from '@app/security';
import { readSessionCookie } from './session-cookie';

const OPEN_PREFIXES = ['/health', '/metrics', '/docs'];
/** Dashboard routes that take a body before anyone is signed in (small DTOs; rate-limited per address). */
const SIGN_IN_ROUTES = [/^\/auth\/sign-in$/, /^\/auth\/invites\/[^/]+\/accept$/];

function headerValue(req: Request, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function carriesCredentialShape(req: Request): boolean {
  if (req.path.startsWith('/admin')) return headerValue(req, 'x-admin-key') !== undefined;
  const key = headerValue(req, 'x-api-key');
  if (key === undefined) return readSessionCookie(req) !== undefined || SIGN_IN_ROUTES.some((route) => route.test(req.path));
  return apiKeyKind(key) !== undefined;
}

/**
 * Runs before the body parsers: a request with a body but no plausible key is refused before up to
 * 64 MiB of JSON is read and parsed on its behalf. Whether a plausible key is valid stays the guards' job.
 */
export function refuseBodiesWithoutCredentials(req: Request, res: Response, next: NextFunction): void {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody || OPEN_PREFIXES.some((prefix) => req.path.startsWith(prefix)) || carriesCredentialShape(req)) {
    next();
    return;
  }
  res.status(401).json(ERROR_CATALOGUE.unauthorized);
}
