import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'mgw_session';
/**
 * Set and cleared with the session cookie, but readable by the console's script and holding nothing secret: a page
 * with no session does not ask `GET /auth/session` only to be told 401 (which browsers log as a console error).
 */
export const SIGNED_IN_HINT_COOKIE = 'mgw_signed_in';
/** 32 random bytes, base64url: anything else in the cookie is not one of our tokens and is never looked up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The session token the browser sent, when it has the shape of one. */
export function readSessionCookie(request: Pick<Request, 'headers'>): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(separator + 1).trim();
    return TOKEN_SHAPE.test(value) ? value : undefined;
  }
  return undefined;
}

/** Whether the request carries a session cookie at all (well-formed or not). */
export function carriesSessionCookie(request: Pick<Request, 'headers'>): boolean {
  const header = request.headers.cookie;
  return typeof header === 'string' && header.split(';').some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`));
}

function attributes(request: Request, maxAgeSeconds: number): string {
  // `request.secure` honours X-Forwarded-Proto only when TRUST_PROXY is on.
  return `Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAgeSeconds}${request.secure ? '; Secure' : ''}`;
}

function hintAttributes(request: Request, maxAgeSeconds: number): string {
  return `Path=/; SameSite=Strict; Max-Age=${maxAgeSeconds}${request.secure ? '; Secure' : ''}`;
}

export function setSessionCookie(request: Request, response: Response, token: string, maxAgeSeconds: number): void {
  response.append('Set-Cookie', `${SESSION_COOKIE}=${token}; ${attributes(request, maxAgeSeconds)}`);
  response.append('Set-Cookie', `${SIGNED_IN_HINT_COOKIE}=1; ${hintAttributes(request, maxAgeSeconds)}`);
}

export function clearSessionCookie(request: Request, response: Response): void {
  response.append('Set-Cookie', `${SESSION_COOKIE}=; ${attributes(request, 0)}`);
  response.append('Set-Cookie', `${SIGNED_IN_HINT_COOKIE}=; ${hintAttributes(request, 0)}`);
}
