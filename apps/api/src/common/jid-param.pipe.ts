import { Injectable, type PipeTransform } from '@nestjs/common';
import { AppError, jidKind, normaliseChatId, normaliseUserId } from '@app/contracts';

type Kind = 'chat' | 'user' | 'group';

const RULES: Record<Kind, { accept(value: string): string | undefined; expected: string }> = {
  chat: { accept: normaliseChatId, expected: 'a chat JID or an international number' },
  user: { accept: normaliseUserId, expected: 'a user JID or an international number' },
  group: {
    accept: (value) => {
      const jid = normaliseChatId(value);
      return jid && jidKind(jid) === 'group' ? jid : undefined;
    },
    expected: 'a group JID (<id>@g.us)',
  },
};

/** A path parameter naming a chat, person or group: normalised to its JID, or 400 naming the parameter. */
@Injectable()
export class JidParamPipe implements PipeTransform<string, string> {
  constructor(
    private readonly field: string,
    private readonly kind: Kind,
  ) {}

  transform(value: string): string {
    const rule = RULES[this.kind];
    const jid = rule.accept(value);
    if (!jid) throw AppError.validation(`${this.field} must be ${rule.expected}`);
    return jid;
  }
}

export const chatIdParam = (field = 'chatId'): JidParamPipe => new JidParamPipe(field, 'chat');
export const userIdParam = (field = 'id'): JidParamPipe => new JidParamPipe(field, 'user');
export const groupIdParam = (field = 'id'): JidParamPipe => new JidParamPipe(field, 'group');
