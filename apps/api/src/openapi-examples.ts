import type { OpenAPIObject } from '@nestjs/swagger';

/**
 * The ids the documented examples use. Each is what a real id of its kind looks like; a client (and the examples
 * test, test/openapi-examples.e2e-spec.ts) puts the id of its own object in its place.
 */
export const OPENAPI_EXAMPLE_IDS = {
  instanceId: 'ins_01jbexample0instance00000',
  customerId: 'cus_01jbexample0customer00000',
  userId: 'usr_01jbexample0user0000000000',
  otherUserId: 'usr_01jbexample0teammate00000',
  inviteToken: 'exampleInviteToken0000000000000000000000000',
  eventId: 'evt_1767225600000_0123456789abcdef',
  messageId: '3EB0C767D26A1D8F0E2B41',
  statusId: '3EB0C767D26A1D8F0E2B99',
  callId: 'A5D7B23C1F0E4D8B9C6A2E1F30B4D7C8',
  sandboxCallId: 'B5D7B23C1F0E4D8B9C6A2E1F30B4D7C8',
  userJid: '14155550123@s.whatsapp.net',
  phone: '14155550123',
  groupJid: '120363025246125486@g.us',
  groupInviteCode: 'GxIl0kExAmPlE0InViTe0c',
  communityJid: '120363025246125999@g.us',
  communityGroupJid: '120363025246125777@g.us',
  newsletterJid: '120363012345678901@newsletter',
  newsletterInviteCode: '0029VaExAmPlEnEwSlEtTeR0',
  inboundMessageId: '3EB0C767D26A1D8F0E2B77',
  signInEmail: 'owner@example.com',
  signInPassword: 'plum sofa harbour lantern 92',
  selfJid: '14155550100@s.whatsapp.net',
  mediaId: 'exampleMediaId0000000000000000000000000000',
  joinInviteCode: 'JnIl0kExAmPlE0InViTe0c',
  invitingGroupJid: '120363025246125444@g.us',
  invitingGroupCode: 'IvIl0kExAmPlE0InViTe0c',
  editableMessageId: '3EB0C767D26A1D8F0E2B88',
  /** Someone who asked to join the example group. */
  requesterJid: '447700900456@s.whatsapp.net',
} as const;

const ids = OPENAPI_EXAMPLE_IDS;

/** Path and query parameters by name; where one name means different things, by the path it appears under. */
const PARAMETER_EXAMPLES: [pathPrefix: string, name: string, example: string][] = [
  ['/account/instances/', 'id', ids.instanceId],
  ['/account/users/', 'userId', ids.otherUserId],
  ['/admin/customers/', 'id', ids.customerId],
  ['/admin/customers/', 'userId', ids.userId],
  ['/auth/invites/', 'token', ids.inviteToken],
  ['/events/', 'eventId', ids.eventId],
  ['/messages/', 'messageId', ids.messageId],
  ['/status/', 'messageId', ids.statusId],
  ['/chats/', 'chatId', ids.userJid],
  ['/session/', 'phone', ids.phone],
  ['/users/', 'phone', ids.phone],
  ['/groups/invite/', 'code', ids.groupInviteCode],
  ['/groups/', 'id', ids.groupJid],
  ['/communities/', 'id', ids.communityJid],
  ['/communities/', 'groupId', ids.communityGroupJid],
  ['/contacts/', 'id', ids.userJid],
  ['/newsletters/invite/', 'code', ids.newsletterInviteCode],
  ['/newsletters/', 'id', ids.newsletterJid],
  ['/calls/', 'callId', ids.callId],
  ['/media/', 'id', ids.mediaId],
  ['/sandbox/groups/', 'id', ids.groupJid],
  ['/sandbox/newsletters/', 'id', ids.newsletterJid],
  ['/sandbox/calls/', 'id', ids.sandboxCallId],
];

/** A real (1x1) JPEG, base64: profile, group and community pictures must be JPEG. */
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2Q==';
const WEBHOOK = { url: 'https://example.com/webhooks/gateway', secret: 'whsec_BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=' };
const VCARD = 'BEGIN:VCARD\nVERSION:3.0\nN:Doe;Jane;;;\nFN:Jane Doe\nTEL;TYPE=CELL;waid=14155550124:+1 415 555 0124\nEND:VCARD';
/** Files travel inline: a URL is checked to resolve to a public address as the request arrives. */
const FILE = (bytes: string) => Buffer.from(bytes).toString('base64');
const SETTINGS = { eventFilters: ['message', 'message_status'], useCustomDefaults: false, pullMode: false, historySync: false };
/** A RabbitMQ sink (the exchange must exist); `{"kind":"nats","url":"nats://…","subject":"…"}` for NATS JetStream. */
const EVENT_SINK = {
  kind: 'rabbitmq',
  url: 'amqp://gateway:s3cret@broker.example.com:5672/events',
  exchange: 'amq.topic',
  routingKey: 'gateway.{instanceId}.{eventType}',
};

/** Whole request bodies by operation, each one a request the gateway accepts. */
const BODY_EXAMPLES: Record<string, unknown> = {
  'POST /account/instances': { name: 'support line', sandbox: true },
  'PUT /account/instances/defaults': {
    defaultEventFilters: ['message', 'message_status'],
    defaultWebhookUrl: WEBHOOK.url,
    defaultSigningSecret: WEBHOOK.secret,
    defaultHistorySync: false,
    defaultPullMode: false,
    defaultEventSink: null,
  },
  'PUT /account/instances/{id}/name': { name: 'support line' },
  'PUT /account/instances/{id}/settings': {
    ...SETTINGS,
    webhookUrl: WEBHOOK.url,
    eventSigningSecret: WEBHOOK.secret,
    eventSink: EVENT_SINK,
  },
  'PUT /instance/settings': { ...SETTINGS, webhookUrl: WEBHOOK.url, eventSigningSecret: WEBHOOK.secret, eventSink: EVENT_SINK },
  'POST /messages/text': { to: ids.userJid, message: 'Hello! Your order #1042 has shipped.' },
  'POST /messages/buttons': {
    to: ids.userJid,
    text: 'Your table for 2 at 19:30 is held. Confirm?',
    footer: 'Reply within 1 hour',
    buttons: [
      { type: 'reply', id: 'confirm', text: 'Confirm' },
      { type: 'reply', id: 'cancel', text: 'Cancel' },
    ],
  },
  'POST /messages/image': { to: ids.userJid, data: JPEG, mimeType: 'image/jpeg', caption: 'Our new shop cat' },
  'POST /messages/video': { to: ids.userJid, data: FILE('a short clip'), mimeType: 'video/mp4', caption: 'Watch this' },
  'POST /messages/audio': { to: ids.userJid, data: FILE('a jingle'), mimeType: 'audio/mpeg' },
  'POST /messages/voice': { to: ids.userJid, data: FILE('a voice note') },
  'POST /messages/document': {
    to: ids.userJid,
    data: FILE('%PDF-1.4 invoice'),
    filename: 'invoice-1042.pdf',
    mimeType: 'application/pdf',
    caption: 'Your invoice',
  },
  'POST /messages/sticker': { to: ids.userJid, data: FILE('RIFF sticker WEBP') },
  'POST /messages/contact': { to: ids.userJid, displayName: 'Jane Doe', vcard: VCARD },
  'POST /messages/link': {
    to: ids.userJid,
    text: 'Worth a read: https://example.com/article',
    url: 'https://example.com/article',
    title: 'How we ship orders',
    description: 'From the warehouse to your door in 24 hours.',
  },
  'POST /messages/{messageId}/edit': { to: ids.userJid, text: 'Hello! Your order #1042 has shipped (tracking inside).' },
  'POST /messages/{messageId}/delete': { chatId: ids.userJid, senderId: ids.selfJid },
  'POST /messages/{messageId}/reaction': { to: ids.userJid, reaction: '👍' },
  'POST /messages/{messageId}/delete-for-me': { chatId: ids.userJid, isFromMe: true, timestamp: '2026-11-24T09:30:00.000Z' },
  'POST /groups/join/link': { code: ids.joinInviteCode },
  'POST /groups/join/invite': {
    groupId: ids.invitingGroupJid,
    inviterId: ids.userJid,
    code: ids.invitingGroupCode,
    expiration: 1_893_456_000,
  },
  'POST /groups/{id}/picture': { data: JPEG },
  'PUT /groups/{id}/name': { name: 'Project team' },
  'PUT /groups/{id}/description': { description: 'Where the project team meets' },
  'PUT /groups/{id}/requests': { participants: [ids.requesterJid], action: 'approve' },
  'POST /calls/{callId}/reject': { callerId: ids.userJid },
  'PUT /users/me/profile': { name: 'Acme Support', status: 'We answer within the hour' },
  'POST /communities': { name: 'Neighbourhood', participants: [ids.userJid] },
  'PUT /communities/{id}/name': { name: 'Neighbourhood' },
  'PUT /communities/{id}/description': { description: 'News and help for the street' },
  'POST /communities/{id}/picture': { data: JPEG },
  'PUT /communities/{id}/participants': { participants: [ids.userJid], action: 'promote' },
  'POST /communities/{id}/groups': { name: 'Gardening', participants: [ids.userJid] },
  'POST /communities/{id}/groups/link': { groupId: ids.groupJid },
  'POST /status/image': { data: JPEG, mimeType: 'image/jpeg', caption: 'Open on Sunday' },
  'POST /status/video': { data: FILE('a short clip'), mimeType: 'video/mp4', caption: 'Behind the scenes' },
  'POST /admin/customers': { name: 'Acme Bookings', ownerEmail: 'bookings-owner@example.com' },
  'PUT /admin/customers/{id}/limits': { maxInstances: 10, maxStreamsPerInstance: 5 },
  'POST /auth/sign-in': { email: ids.signInEmail, password: ids.signInPassword },
  'POST /auth/invites/{token}/accept': { password: 'violet harbour lantern sofa 17' },
  'POST /account/users': { email: 'teammate@example.com' },
  'POST /sandbox/pair': { phone: '14155550100' },
  'POST /sandbox/connection': { state: 'online' },
  'POST /sandbox/contacts': { id: ids.userJid, pushName: 'Jane', fullName: 'Jane Doe' },
  'POST /sandbox/presence': { from: ids.userJid, state: 'available' },
  'POST /sandbox/profile': { id: ids.userJid, pushName: 'Jane', about: 'Hey there!' },
  'POST /sandbox/users': { phone: '447700900123', pushName: 'Ann', about: 'Available' },
  'POST /sandbox/business-profiles': { id: ids.userJid, name: 'Jane Bakes', description: 'Cakes to order' },
  'POST /sandbox/profile-pictures': { id: ids.userJid, hidden: false },
  'POST /sandbox/inbound': { type: 'text', from: ids.userJid, text: 'Hi, is my order on its way?' },
  'POST /sandbox/inbound/undecryptable': { from: ids.userJid, reason: 'Bad MAC', attempts: 6 },
  'POST /sandbox/inbound/batch': { messages: [{ type: 'text', from: ids.userJid, text: 'Hi, is my order on its way?' }] },
  'POST /sandbox/receipts': { messageId: ids.messageId, from: ids.userJid, status: 'read' },
  'POST /sandbox/delete': { messageId: ids.inboundMessageId, forEveryone: true },
  'POST /sandbox/edit': { messageId: ids.editableMessageId, text: 'See you at 10 instead' },
  'POST /sandbox/star': { messageId: ids.inboundMessageId, starred: true },
  'POST /sandbox/chat-settings': { chatId: ids.userJid, settingType: 'archive', enabled: true },
  'POST /sandbox/groups': { name: 'Book club', participants: [ids.userJid], admins: [], selfIsAdmin: true },
  'POST /sandbox/groups/{id}/changes': { name: 'Project team (2027)' },
  'POST /sandbox/groups/{id}/join-requests': { from: '447700900789@s.whatsapp.net' },
  'POST /sandbox/newsletters': { name: 'Release notes' },
  'POST /sandbox/newsletters/{id}/mute': { muted: true },
  'POST /sandbox/channels': { name: 'Acme news', description: 'What changed, every week' },
  'PUT /sandbox/status-privacy': { type: 'contacts' },
  'PUT /sandbox/refusals': { chatId: '447700900999@s.whatsapp.net', code: 463, times: 1 },
  'PUT /sandbox/link-drops': { chatId: '447700900999@s.whatsapp.net', times: 1 },
  'POST /sandbox/calls': { from: ids.userJid, video: false },
  'POST /sandbox/calls/{id}/end': { reason: 'ended' },
};

/**
 * Swagger UI prefills "Try it out" with these: every parameter an example, every request body a whole request that
 * succeeds (a sample generated from the schema would carry every optional field, several of which exclude each other).
 */
export function addExamples(document: OpenAPIObject): OpenAPIObject {
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = methods[method];
      if (!operation) continue;
      for (const parameter of operation.parameters ?? []) {
        if (!('in' in parameter) || (parameter.in !== 'path' && parameter.in !== 'query') || parameter.example !== undefined) continue;
        const match = PARAMETER_EXAMPLES.find(([prefix, name]) => path.startsWith(prefix) && name === parameter.name);
        if (match) parameter.example = match[2];
      }
      const json =
        operation.requestBody && 'content' in operation.requestBody ? operation.requestBody.content['application/json'] : undefined;
      const example = BODY_EXAMPLES[`${method.toUpperCase()} ${path}`];
      if (json && example !== undefined) json.example = example;
    }
  }
  return document;
}
