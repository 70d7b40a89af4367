import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsString, ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { normaliseUserId, phoneNumberProblem } from '@app/contracts';
import { CHAT_ID, Follows, NormalisedBy, refusal, type InputRule } from '../../common/validators';
import { REQUIRED } from './message.validators';

/**
 * A person, without the device part some sources add (`4155550123:12@s.whatsapp.net`, as the contract family's
 * examples write it, docs/decisions.md): a sender is a user, not one of their devices. Group JIDs are refused.
 */
export function userJidOf(value: string): string | undefined {
  return normaliseUserId(value.trim().replace(/^(\d+):\d+@(s\.whatsapp\.net|lid)$/, '$1@$2'));
}

/** The send routes spell the accepted JID forms out in their 400s. */
const RECIPIENT: InputRule = {
  ...CHAT_ID,
  expected: 'a chat JID (<digits>@s.whatsapp.net, <id>@g.us, <id>@lid) or an international number',
};
const PERSON: InputRule = {
  accept: userJidOf,
  expected: 'a user JID (<digits>@s.whatsapp.net, <id>@lid) or an international number',
  problem: phoneNumberProblem,
};
const PEOPLE_RULE = 'must contain only user JIDs (<digits>@s.whatsapp.net, <id>@lid) or international numbers';

/** A user JID, group JID, LID or bare international number (see `normaliseChatId`). */
export const IsChatId = (): PropertyDecorator => Follows(RECIPIENT);

/** A person: user JID, LID or bare international number (see `userJidOf`). */
export function IsUserId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUserId',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && PERSON.accept(value) !== undefined,
        defaultMessage: buildMessage(
          (eachPrefix, args) => (eachPrefix ? PEOPLE_RULE : refusal(args?.property ?? '', PERSON, args?.value)),
          options,
        ),
      },
    },
    options,
  );
}

/** Services receive JIDs: a bare number becomes `<digits>@s.whatsapp.net`, surrounding spaces go. Works on arrays too. */
export const ToChatJid = (): PropertyDecorator => NormalisedBy(CHAT_ID);

/**
 * A required chat field (`to`, `chatId`): a user JID, group JID, LID or international number, normalised to a JID. In the
 * order the stacked `@IsDefined(REQUIRED) @IsString() @IsChatId() @ToChatJid()` applies (bottom-up), so errors read the same.
 */
export const ChatField = (): PropertyDecorator => applyDecorators(ToChatJid(), IsChatId(), IsString(), IsDefined(REQUIRED));

/** As `ToChatJid`, for fields that name a person; also drops a device part. Group JIDs are left for `IsUserId` to refuse. */
export const ToUserJid = (): PropertyDecorator => NormalisedBy(PERSON);
