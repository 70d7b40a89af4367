import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  buildMessage,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { ChatField } from './jid.validators';
import {
  IsHttpUrl,
  IsNotBlank,
  IsUniqueAmongPeers,
  LinkPeers,
  MAX_URL_CHARS,
  MaxChars,
  REQUIRED,
  RequiredText,
  OptionalText,
} from './message.validators';

import {
  BUTTON_TYPES,
  MAX_BUTTON_ID_CHARS,
  MAX_BUTTON_TEXT_CHARS,
  MAX_BUTTONS,
  MAX_COPY_CODE_CHARS,
  MAX_INTERACTIVE_FOOTER_CHARS,
  MAX_INTERACTIVE_HEADER_CHARS,
  MAX_INTERACTIVE_TEXT_CHARS,
  MIN_BUTTONS,
  PHONE_NUMBER,
} from '@app/contracts';

export { BUTTON_TYPES, MAX_INTERACTIVE_FOOTER_CHARS, MAX_INTERACTIVE_HEADER_CHARS, MAX_INTERACTIVE_TEXT_CHARS, PHONE_NUMBER };
export type InteractiveButtonType = (typeof BUTTON_TYPES)[number];

/** `type` defaults to reply; null counts as left out, as it does for every optional field. */
export function buttonTypeOf(button: InteractiveButtonDto): string {
  return button.type ?? 'reply';
}

/**
 * Refuses a field that belongs to another kind of button (`url` on a reply button): it would be dropped silently.
 * A button of an unknown type is left to the `type` rule, so it reports one problem, not one per field.
 */
export function OnlyOnButtonType(type: InteractiveButtonType, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'onlyOnButtonType',
      constraints: [type],
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) => {
          if (args === undefined) return true;
          const actual = buttonTypeOf(args.object as InteractiveButtonDto);
          return actual === type || !(BUTTON_TYPES as readonly string[]).includes(actual);
        },
        defaultMessage: buildMessage(() => `is only allowed on ${type} buttons`, options),
      },
    },
    options,
  );
}

/** One button (contract: InteractiveButton). Each type takes its own field: id, url, copyCode or phoneNumber. */
export class InteractiveButtonDto {
  /** reply: answers with an event; url: opens `url`; copy: copies `copyCode`; call: calls `phoneNumber`. */
  @ApiProperty({ enum: BUTTON_TYPES, default: 'reply', required: false })
  @IsOptional()
  @IsString()
  @IsIn(BUTTON_TYPES, { message: `must be one of ${BUTTON_TYPES.join(', ')}` })
  type?: InteractiveButtonType = 'reply';

  /**
   * Label.
   * @example "Yes"
   */
  @RequiredText(MAX_BUTTON_TEXT_CHARS)
  text!: string;

  /**
   * Reply buttons only, and required there; unique within the message. Comes back as `buttonReply.id` when tapped.
   * @example "yes"
   */
  @ValidateIf((button: InteractiveButtonDto) => button.id != null || buttonTypeOf(button) === 'reply')
  @IsDefined({ message: 'is required on reply buttons' })
  @IsString()
  @OnlyOnButtonType('reply')
  @IsNotBlank()
  @MaxChars(MAX_BUTTON_ID_CHARS)
  @IsUniqueAmongPeers()
  id?: string;

  /** URL buttons only, and required there: the http(s) address opened in the recipient's browser. */
  @ValidateIf((button: InteractiveButtonDto) => button.url != null || buttonTypeOf(button) === 'url')
  @IsDefined({ message: 'is required on url buttons' })
  @IsString()
  @OnlyOnButtonType('url')
  @MaxChars(MAX_URL_CHARS)
  @IsHttpUrl()
  url?: string;

  /** Copy buttons only, and required there: the text copied to the recipient's clipboard. */
  @ValidateIf((button: InteractiveButtonDto) => button.copyCode != null || buttonTypeOf(button) === 'copy')
  @IsDefined({ message: 'is required on copy buttons' })
  @IsString()
  @OnlyOnButtonType('copy')
  @IsNotBlank()
  @MaxChars(MAX_COPY_CODE_CHARS)
  copyCode?: string;

  /**
   * Call buttons only, and required there: the international number the recipient's phone calls.
   * @example "+14155550123"
   */
  @ApiProperty({ pattern: PHONE_NUMBER.source })
  @ValidateIf((button: InteractiveButtonDto) => button.phoneNumber != null || buttonTypeOf(button) === 'call')
  @IsDefined({ message: 'is required on call buttons' })
  @IsString()
  @OnlyOnButtonType('call')
  @Matches(PHONE_NUMBER, { message: 'must be an international number: optional +, then 7 to 15 digits, not starting with 0' })
  phoneNumber?: string;
}

/**
 * `POST /messages/buttons` (beta; contract: SendButtonsRequest). Takes none of the common send options
 * (mentions, replyTo, isForwarded, ephemeralExpiration): they are not declared, so they are refused as unknown fields.
 */
export class SendButtonsDto {
  /**
   * Recipient: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * Message body.
   * @example "Do you confirm the booking?"
   */
  @RequiredText(MAX_INTERACTIVE_TEXT_CHARS)
  text!: string;

  /** Text shown above the body. */
  @OptionalText(MAX_INTERACTIVE_HEADER_CHARS)
  header?: string;

  /** Text shown below the body. */
  @OptionalText(MAX_INTERACTIVE_FOOTER_CHARS)
  footer?: string;

  /** Show an AI badge (1:1 chats only; ignored in groups). */
  @IsOptional()
  @IsBoolean()
  aiLabel?: boolean = false;

  /** 1 to 3 buttons; types may be mixed. */
  @ApiProperty({ minItems: MIN_BUTTONS, maxItems: MAX_BUTTONS })
  @IsDefined(REQUIRED)
  @IsArray()
  @ArrayMinSize(MIN_BUTTONS, { message: `must have at least ${MIN_BUTTONS} item` })
  @ArrayMaxSize(MAX_BUTTONS, { message: `must have at most ${MAX_BUTTONS} items` })
  // An item must be an object: class-validator would otherwise walk a nested array as if it were the list.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => InteractiveButtonDto)
  @LinkPeers()
  buttons!: InteractiveButtonDto[];
}
