import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError } from '@app/contracts';

const MESSAGE_ID = /^[A-Za-z0-9]{1,128}$/;

/** Message ids are letters and digits (the network's are upper-case hex); anything else is a 400 naming the parameter. */
@Injectable()
export class MessageIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!MESSAGE_ID.test(value)) throw AppError.validation('messageId must be a message id (letters and digits)');
    return value;
  }
}

export const messageIdParam = (): MessageIdPipe => new MessageIdPipe();
