// The shapes the peer views read: the API's own schemas, generated into the typed client (libs/client), under their
// DTO names.
import type { MessageEventData } from '@contracts/event-payloads';

export type { MessageEventData };
export type {
  UserMeInfoDto,
  ChatPictureDto,
  ChatDto,
  PrivacySettingsDto,
  DeliveryStateDto,
  DeliveryStatesDto,
  HourlyDeliveriesDto,
  DeliveryHealthDto,
} from '@messaging-gateway/client';

/** Every send route the message tester drives, by its path under `/messages/`. */
export type TesterSendKind = 'image' | 'video' | 'audio' | 'document' | 'location' | 'contact';

/** A stored `message` event with where it sits in the log. */
export interface LoggedMessage {
  seq: number;
  receivedAt: string;
  message: MessageEventData;
}
