// The shapes of the API answers the console reads, named for the console. Each is the API's own schema from
// openapi-types.ts, which `npm run build` generates from the OpenAPI document (scripts/generate-console-types.mjs),
// so a changed answer breaks the console's type-check instead of the console.
import type { components } from './openapi-types';

type Schemas = components['schemas'];

export type SessionUser = Schemas['DashboardUserDto'];
export type SignedIn = Schemas['SignedInDto'];
export type InviteInfo = Schemas['LinkInfoDto'];
export type TeamMember = Schemas['TeamMemberDto'];
export type CreatedInvite = Schemas['InvitedUserDto'];
export type InstanceSettings = Schemas['InstanceSettingsDto'];
export type Instance = Schemas['InstanceDetailDto'];
export type InstanceStatus = Instance['status'];
export type CreatedInstance = Schemas['CreatedInstanceDto'];
export type InstancePage = Schemas['InstancePageDto'];
export type CustomerDefaults = Schemas['CustomerDefaultsDto'];
export type SessionStatus = Schemas['SessionStatusDto'];
export type EventEnvelope = Schemas['EventEnvelopeDto'];
export type LoggedEvent = Schemas['LoggedEventDto'];
export type EventPage = Schemas['EventPageDto'];
export type DeliveryAttempt = Schemas['DeliveryAttemptDto'];
export type DeliveryReport = Schemas['DeliveryReportDto'];
export type WebhookTestResult = Schemas['WebhookTestResultDto'];
export type OutboxEntry = Schemas['OutboxEntryDto'];
export type InboxEntry = Schemas['InboxEntryDto'];
export type CustomerSummary = Schemas['CustomerSummaryDto'];
export type CustomerPage = Schemas['CustomerPageDto'];
export type CreatedCustomer = Schemas['CreatedCustomerDto'];
export type Overview = Schemas['OverviewDto'];

/** One message of the instance status stream (`GET /account/instances/stream`, a text/event-stream the document cannot type). */
export interface LiveStatusMessage {
  instanceId: string;
  status: InstanceStatus;
  deviceId?: string | null;
}
