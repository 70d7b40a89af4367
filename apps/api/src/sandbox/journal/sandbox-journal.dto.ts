import { ApiProperty } from '@nestjs/swagger';
import {} from 'class-validator';

export class OutboxEntryDto {
  /** The message id, as returned by the send. */
  id!: string;
  /** The chat it was sent to. */
  to!: string;
  type!: string;
  /** What the network received, as rendered for the recipient. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  content!: Record<string, unknown>;
  receivedAt!: string;
}

export class InboxEntryDto {
  /** The message id. */
  id!: string;
  /** The contact who sent it. */
  from!: string;
  /** The chat it arrived in. */
  chatId!: string;
  type!: string;
  /** The message as this account's phone shows it now (reactions, deletes, stars, pins included). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  content!: Record<string, unknown>;
  receivedAt!: string;
}

export class NetworkOperationDto {
  /** The operation, e.g. `chats.archive` or `groups.participants`. */
  name!: string;
  /** Its arguments as the network received them (JIDs normalised). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  args!: Record<string, unknown>;
  at!: string;
}
