import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '@app/contracts';

const NEWSLETTER_JID = /^\d{1,30}@newsletter$/;
const INVITE_CODE = /^[A-Za-z0-9]{1,64}$/;

/** Path parameters of the channel routes: refused with a 400 naming the parameter before anything reaches the network. */
@Injectable()
export class NewsletterParamPipe implements PipeTransform<string, string> {
  constructor(
    private readonly field: string,
    private readonly pattern: RegExp,
    private readonly expected: string,
  ) {}

  transform(value: string): string {
    if (!this.pattern.test(value)) throw AppError.validation(`${this.field} must be ${this.expected}`);
    return value;
  }
}

export const newsletterIdParam = (): NewsletterParamPipe =>
  new NewsletterParamPipe('id', NEWSLETTER_JID, 'a channel JID (<digits>@newsletter)');
export const inviteCodeParam = (): NewsletterParamPipe =>
  new NewsletterParamPipe('code', INVITE_CODE, 'a channel invite code (letters and digits)');
