import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { CHAT_ID, GROUP_ID, GROUP_INVITE, PAIRING_PHONE, PHONE, USER_ID, refusal, type InputRule } from './validators';

/** A path parameter that follows an input rule: what the rule makes of it (a JID, a number's digits), or 400 naming it. */
@Injectable()
export class RuleParamPipe implements PipeTransform<string, string> {
  constructor(
    private readonly field: string,
    private readonly rule: InputRule,
  ) {}

  transform(value: string): string {
    const accepted = this.rule.accept(value);
    if (accepted === undefined) throw AppError.validation(refusal(this.field, this.rule, value));
    return accepted;
  }
}

export const chatIdParam = (field = 'chatId'): RuleParamPipe => new RuleParamPipe(field, CHAT_ID);
export const userIdParam = (field = 'id'): RuleParamPipe => new RuleParamPipe(field, USER_ID);
export const groupIdParam = (field = 'id'): RuleParamPipe => new RuleParamPipe(field, GROUP_ID);
export const groupInviteParam = (field = 'code'): RuleParamPipe => new RuleParamPipe(field, GROUP_INVITE);
export const phoneParam = (field = 'phone'): RuleParamPipe => new RuleParamPipe(field, PHONE);
export const pairingPhoneParam = (field = 'phone'): RuleParamPipe => new RuleParamPipe(field, PAIRING_PHONE);
