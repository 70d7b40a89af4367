// @messaging-gateway/client: the gateway's API typed from its OpenAPI document (generated/openapi.ts, written by
// `npm run generate:client`), plus what generation cannot give: errors as exceptions, idempotent sends, the event
// stream with resume, and webhook verification. Runs wherever fetch and WebCrypto do; depends only on openapi-fetch
// (and its type helpers).
export type * from './generated/openapi.js';
export { GatewayConnectionError, GatewayError, type ErrorBody } from './errors.js';
export {
  createGatewayClient,
  GatewayClient,
  type GatewayClientOptions,
  type GatewayMethod,
  type SendBody,
  type SendOptions,
  type SendPath,
  type SendResult,
  type Sent,
  type SuccessData,
} from './gateway-client.js';
export { EventStream, type EventStreamOptions, type StreamedEvent, type StreamGap, type StreamMessage } from './event-stream.js';
export { decodeEventEnvelope, EventDecodeError } from './envelope.js';
export { isValidIdempotencyKey, newIdempotencyKey } from './idempotency.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookHeaders, type WebhookScheme } from './webhooks.js';
export type { InstanceStatus, InstanceStatusMessage } from './stream-types.js';
