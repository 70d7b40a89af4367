// Hand-written shapes of the API answers the peer views read, named after the API's DTOs so each can be swapped for
// the generated OpenAPI type of the same name.
import type { MessageEventData } from '@contracts/event-payloads';

export type { MessageEventData };

/** `GET /users/me/profile`. */
export interface UserMeInfoDto {
  id: string;
  phone: string;
  deviceId?: number;
  pushName?: string;
  businessName?: string;
  status?: string;
  pictureId?: string;
}

/** `GET /chats/{chatId}/picture`. */
export interface ChatPictureDto {
  pictureId: string;
  pictureUrl: string;
}

/** `GET /chats`, one entry. */
export interface ChatDto {
  id: string;
  lid?: string;
  isGroup: boolean;
  isArchived: boolean;
  isPinned: boolean;
  isMuted: boolean;
  muteEndTime?: string;
  pushName?: string;
  businessName?: string;
  fullName?: string;
  lastActivity?: string;
}

/** `GET /users/me/privacy`. */
export interface PrivacySettingsDto {
  groupAdd: string;
  lastSeen: string;
  status: string;
  profile: string;
  readReceipts: string;
  online: string;
  callAdd: string;
}

/** `GET /events/deliveries`. */
export interface DeliveryStateDto {
  eventId: string;
  receivedAt: string;
  state: 'pending' | 'delivered' | 'failed' | 'stopped';
}

export interface DeliveryStatesDto {
  items: DeliveryStateDto[];
  truncated: boolean;
}

/** `GET /events/deliveries/hourly`. */
export interface HourlyDeliveriesDto {
  hour: string;
  delivered: number;
  failed: number;
  pending: number;
}

export interface DeliveryHealthDto {
  hours: HourlyDeliveriesDto[];
}

/** Every send route the message tester drives, by its path under `/messages/`. */
export type TesterSendKind = 'image' | 'video' | 'audio' | 'document' | 'location' | 'contact';

/** A stored `message` event with where it sits in the log. */
export interface LoggedMessage {
  seq: number;
  receivedAt: string;
  message: MessageEventData;
}
