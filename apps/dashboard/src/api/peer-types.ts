// The shapes the peer views read: the API's own schemas from the generated openapi-types.ts, under their DTO names.
import type { MessageEventData } from '@contracts/event-payloads';
import type { components } from './openapi-types';

type Schemas = components['schemas'];

export type { MessageEventData };

export type UserMeInfoDto = Schemas['UserMeInfoDto'];
export type ChatPictureDto = Schemas['ChatPictureDto'];
export type ChatDto = Schemas['ChatDto'];
export type PrivacySettingsDto = Schemas['PrivacySettingsDto'];
export type DeliveryStateDto = Schemas['DeliveryStateDto'];
export type DeliveryStatesDto = Schemas['DeliveryStatesDto'];
export type HourlyDeliveriesDto = Schemas['HourlyDeliveriesDto'];
export type DeliveryHealthDto = Schemas['DeliveryHealthDto'];

/** Every send route the message tester drives, by its path under `/messages/`. */
export type TesterSendKind = 'image' | 'video' | 'audio' | 'document' | 'location' | 'contact';

/** A stored `message` event with where it sits in the log. */
export interface LoggedMessage {
  seq: number;
  receivedAt: string;
  message: MessageEventData;
}
