import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '@app/contracts';

const PHONE = /^\+?(\d{7,15})$/;
export const PHONE_RULE = 'must be an international number (7-15 digits, optionally with a leading +)';

/** The digits of an international number, or undefined when the value is not one. */
export function phoneDigits(value: string): string | undefined {
  return PHONE.exec(value)?.[1];
}

/** A path parameter naming a phone number: its digits, or 400 naming the parameter. */
@Injectable()
export class PhoneParamPipe implements PipeTransform<string, string> {
  constructor(private readonly field: string) {}

  transform(value: string): string {
    const digits = phoneDigits(value);
    if (!digits) throw AppError.validation(`${this.field} ${PHONE_RULE}`);
    return digits;
  }
}

export const phoneParam = (field = 'phone'): PhoneParamPipe => new PhoneParamPipe(field);
