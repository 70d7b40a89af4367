import { Injectable, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { AppError, ERROR_CATALOGUE, type ErrorBody } from '@app/contracts';
import { Authenticator, header } from './authenticator';

const OPEN_PREFIXES = ['/health', '/metrics', '/docs'];
/** Dashboard routes that take a body before anyone is signed in (small DTOs; refused per address after failures). */
const SIGN_IN_ROUTES = [/^\/auth\/sign-in$/, /^\/auth\/invites\/[^/]+\/accept$/];

export function hasBody(req: Request): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Runs before the body parsers, for every request that carries a body: the address block is checked and the key
 * looked up (cache first) before a byte of the body is read, so an unauthenticated request never makes the API buffer
 * and parse up to 64 MiB of JSON. A refused request's body is left unread (Node discards it). On the large-body routes
 * the key must also be valid for `X-Instance-Id`. The routes' guards reuse the outcome; they still decide the plane.
 */
@Injectable()
export class CredentialsBeforeBody {
  private readonly logger = new Logger(CredentialsBeforeBody.name);

  constructor(private readonly auth: Authenticator) {}

  /** Express middleware; `largeBodyRoutes` are the paths whose body limit is above the default. */
  handler(largeBodyRoutes: string[]): (req: Request, res: Response, next: NextFunction) => void {
    return (req, res, next) => {
      if (
        !hasBody(req) ||
        OPEN_PREFIXES.some((prefix) => req.path.startsWith(prefix)) ||
        SIGN_IN_ROUTES.some((route) => route.test(req.path))
      ) {
        next();
        return;
      }
      this.check(req, largeBodyRoutes.includes(req.path)).then(
        () => next(),
        (error: unknown) => this.refuse(res, error),
      );
    };
  }

  private async check(req: Request, largeBody: boolean): Promise<void> {
    if (req.path.startsWith('/admin')) return this.auth.authenticateAdmin(req);
    const { principal } = await this.auth.authenticate(req);
    if (!largeBody) return;
    const instanceId = header(req, 'x-instance-id');
    if (!instanceId) throw new AppError('missing_instance_header');
    if (!(await this.auth.mayUseInstance(principal, instanceId))) throw new AppError('unauthorized');
  }

  private refuse(res: Response, error: unknown): void {
    let body: ErrorBody = ERROR_CATALOGUE.internal;
    if (error instanceof AppError) {
      body = error.toBody();
      for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
    } else {
      this.logger.error({ err: error }, 'authentication before the body failed');
    }
    res.status(body.status).json(body);
  }
}
