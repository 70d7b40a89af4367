import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  buildMessage,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { ChatField } from './jid.validators';
import { IsNotBlank, IsUniqueAmongPeers, LinkPeers, MaxChars, REQUIRED, peersOf, RequiredText, OptionalText } from './message.validators';
import {
  MAX_INTERACTIVE_FOOTER_CHARS,
  MAX_INTERACTIVE_HEADER_CHARS,
  MAX_INTERACTIVE_TEXT_CHARS,
  MAX_LIST_BUTTON_TEXT_CHARS,
  MAX_ROW_DESCRIPTION_CHARS,
  MAX_ROW_ID_CHARS,
  MAX_ROW_TITLE_CHARS,
  MAX_ROWS_TOTAL,
  MAX_SECTION_TITLE_CHARS,
  MAX_SECTIONS,
  MIN_ROWS_PER_SECTION,
  MIN_SECTIONS,
} from '@app/contracts';

const SECTION_TITLE_RULE = 'is required when there is more than one section';

function hasSeveralSections(section: object): boolean {
  return peersOf(section).length > 1;
}

/** With more than one section every title must say something; with one section it may be left out or empty. */
export function IsSectionTitleGiven(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSectionTitleGiven',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          args === undefined || !hasSeveralSections(args.object) || (typeof value === 'string' && /\S/u.test(value)),
        defaultMessage: buildMessage(() => SECTION_TITLE_RULE, options),
      },
    },
    options,
  );
}

function rowsOf(section: object): object[] {
  const rows = (section as { rows?: unknown }).rows;
  return Array.isArray(rows) ? rows.filter((row): row is object => typeof row === 'object' && row !== null) : [];
}

/** The network shows at most this many rows in one list, however they are split into sections. */
export function MaxRowsInTotal(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxRowsInTotal',
      constraints: [max],
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.reduce(
            (total: number, section: unknown) => total + (typeof section === 'object' && section !== null ? rowsOf(section).length : 0),
            0,
          ) <= max,
        defaultMessage: buildMessage(() => `must have at most ${max} rows in total`, options),
      },
    },
    options,
  );
}

/** One choice in the list. */
export class ListRowDto {
  /**
   * Unique across the whole list; comes back as `listReply.id` when chosen.
   * @example "slot-0900"
   */
  @IsDefined(REQUIRED)
  @IsString()
  @IsNotBlank()
  @MaxChars(MAX_ROW_ID_CHARS)
  @IsUniqueAmongPeers()
  id!: string;

  /**
   * @example "9:00"
   */
  @RequiredText(MAX_ROW_TITLE_CHARS)
  title!: string;

  /** Second line under the title. */
  @OptionalText(MAX_ROW_DESCRIPTION_CHARS)
  description?: string;
}

/** A group of rows. */
export class ListSectionDto {
  /** Required on every section when there is more than one section; optional with a single section. */
  @ValidateIf((section: ListSectionDto) => section.title != null || hasSeveralSections(section))
  @IsDefined({ message: SECTION_TITLE_RULE })
  @IsString()
  @MaxChars(MAX_SECTION_TITLE_CHARS)
  @IsSectionTitleGiven()
  title?: string;

  /** At least 1 row; at most 10 rows across all sections. */
  @ApiProperty({ minItems: MIN_ROWS_PER_SECTION, maxItems: MAX_ROWS_TOTAL })
  @IsDefined(REQUIRED)
  @IsArray()
  @ArrayMinSize(MIN_ROWS_PER_SECTION, { message: `must have at least ${MIN_ROWS_PER_SECTION} item` })
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ListRowDto)
  rows!: ListRowDto[];
}

/** `POST /messages/list` (beta). Takes none of the common send options, like buttons. */
export class SendListDto {
  /**
   * Recipient: a user JID, group JID, LID or international number (normalised to a JID).
   * @example "14155550123@s.whatsapp.net"
   */
  @ChatField()
  to!: string;

  /**
   * Message body.
   * @example "Pick a time slot"
   */
  @RequiredText(MAX_INTERACTIVE_TEXT_CHARS)
  text!: string;

  /** Text shown above the body. */
  @OptionalText(MAX_INTERACTIVE_HEADER_CHARS)
  header?: string;

  /** Text shown below the body. */
  @OptionalText(MAX_INTERACTIVE_FOOTER_CHARS)
  footer?: string;

  /**
   * Label of the single button that opens the list.
   * @example "See slots"
   */
  @RequiredText(MAX_LIST_BUTTON_TEXT_CHARS)
  buttonText!: string;

  /** Show an AI badge (1:1 chats only; ignored in groups). */
  @IsOptional()
  @IsBoolean()
  aiLabel?: boolean = false;

  /** 1 to 10 sections. */
  @ApiProperty({ minItems: MIN_SECTIONS, maxItems: MAX_SECTIONS })
  @IsDefined(REQUIRED)
  @IsArray()
  @ArrayMinSize(MIN_SECTIONS, { message: `must have at least ${MIN_SECTIONS} item` })
  // Listed after ArrayMaxSize in the error text: class-validator runs a property's decorators bottom-up.
  @MaxRowsInTotal(MAX_ROWS_TOTAL)
  @ArrayMaxSize(MAX_SECTIONS, { message: `must have at most ${MAX_SECTIONS} items` })
  // An item must be an object: class-validator would otherwise walk a nested array as if it were the list.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ListSectionDto)
  @LinkPeers((sections) => [sections, sections.flatMap(rowsOf)])
  sections!: ListSectionDto[];
}
