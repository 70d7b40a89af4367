import type { InstanceDetailDto } from './generated/openapi.js';

export type InstanceStatus = InstanceDetailDto['status'];

/**
 * One message of the customer's instance status stream (`GET /account/instances/stream`, a `text/event-stream` whose
 * messages the OpenAPI document cannot type).
 */
export interface InstanceStatusMessage {
  instanceId: string;
  status: InstanceStatus;
  deviceId?: string | null;
}
