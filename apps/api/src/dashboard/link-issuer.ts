import { createHash, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '@app/config';
import type { DashboardLinkPurpose, NewDashboardLink } from '@app/database';
import { newId } from '@app/security';

/** A link made but not yet stored: the token goes to the person (once), only its hash to the database. */
export interface IssuedLink {
  token: string;
  record: NewDashboardLink;
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Makes one-time links (invites, password resets); needs nothing but the configuration, so the CLI can use it too. */
@Injectable()
export class LinkIssuer {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  issue(purpose: DashboardLinkPurpose): IssuedLink {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.config.dashboard.linkTtlSeconds * 1000);
    return { token, record: { id: newId('lnk'), tokenHash: hashLinkToken(token), purpose, expiresAt } };
  }

  /** `<PUBLIC_BASE_URL, else the request's origin, else http://localhost:PORT>/dashboard/invite/<token>`. */
  url(token: string, request?: Request): string {
    const base =
      this.config.dashboard.publicBaseUrl ||
      (request ? `${request.protocol}://${request.headers.host ?? 'localhost'}` : `http://localhost:${this.config.port}`);
    return `${base}/dashboard/invite/${token}`;
  }
}
