import { Transform } from 'class-transformer';
import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { normaliseChatId, normaliseUserId } from '@app/contracts';

export const CHAT_ID_RULE = 'must be a chat JID (<digits>@s.whatsapp.net, <id>@g.us, <id>@lid) or an international number';
export const USER_ID_RULE = 'must be a user JID (<digits>@s.whatsapp.net, <id>@lid) or an international number';
const USER_IDS_RULE = 'must contain only user JIDs (<digits>@s.whatsapp.net, <id>@lid) or international numbers';

/**
 * A person, without the device part some sources add (`4155550123:12@s.whatsapp.net`, as in the reference API's
 * examples): a sender is a user, not one of their devices. Group JIDs are refused.
 */
export function userJidOf(value: string): string | undefined {
  return normaliseUserId(value.trim().replace(/^(\d+):\d+@(s\.whatsapp\.net|lid)$/, '$1@$2'));
}

/** A user JID, group JID, LID or bare international number (see `normaliseChatId`). */
export function IsChatId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isChatId',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && normaliseChatId(value) !== undefined,
        defaultMessage: buildMessage(() => CHAT_ID_RULE, options),
      },
    },
    options,
  );
}

/** A person: user JID, LID or bare international number (see `userJidOf`). */
export function IsUserId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUserId',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && userJidOf(value) !== undefined,
        defaultMessage: buildMessage((eachPrefix) => (eachPrefix ? USER_IDS_RULE : USER_ID_RULE), options),
      },
    },
    options,
  );
}

function normaliseWith(normalise: (value: string) => string | undefined): PropertyDecorator {
  // Values that do not normalise are left as sent, so the validator reports them as the caller wrote them.
  const one = (value: unknown): unknown => (typeof value === 'string' ? (normalise(value) ?? value) : value);
  return Transform(({ value }: { value: unknown }) => (Array.isArray(value) ? value.map(one) : one(value)));
}

/** Services receive JIDs: a bare number becomes `<digits>@s.whatsapp.net`, surrounding spaces go. Works on arrays too. */
export function ToChatJid(): PropertyDecorator {
  return normaliseWith(normaliseChatId);
}

/** As `ToChatJid`, for fields that name a person; also drops a device part. Group JIDs are left for `IsUserId` to refuse. */
export function ToUserJid(): PropertyDecorator {
  return normaliseWith(userJidOf);
}
