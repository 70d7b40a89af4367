import { z } from 'zod';
import { SANDBOX_INBOUND_TYPES } from '../commands/sandbox';
import type { CommandContract, CommandName, CommandReply, CommandRequest } from '../commands';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors';
import { CHAT_PRESENCE_STATES, CHAT_SETTING_TYPES, MEDIA_TYPES } from '../event-payloads';
import { REFUSAL_CODES } from '../messages';
import { OPERATION_SCHEMAS } from './operations';
import { wireVersionField } from './decode';
import { str, bool, num, none } from './primitives';

/**
 * The command bus (API → worker request on the worker's channel, worker → API reply on the caller's channel).
 * Version 2 added `v`; the shapes are otherwise those of the previous release.
 */
export const COMMAND_WIRE_VERSION = 2;

type CommandSchemas = {
  [N in CommandName]: { args: z.ZodType<CommandContract[N]['args']>; result: z.ZodType<CommandContract[N]['result']> };
};

const id = z.object({ id: str });

const mediaSpec = z.object({
  mediaType: z.enum(MEDIA_TYPES),
  mimeType: str.optional(),
  caption: str.optional(),
  fileLength: num.optional(),
  width: num.optional(),
  height: num.optional(),
  duration: num.optional(),
  filename: str.optional(),
  pageCount: num.optional(),
  viewOnce: bool.optional(),
  data: str.optional(),
});

const inboundSpec = z.object({
  from: str,
  chatId: str.optional(),
  type: z.enum(SANDBOX_INBOUND_TYPES),
  text: str.optional(),
  replyTo: str.optional(),
  buttonId: str.optional(),
  rowId: str.optional(),
  pushName: str.optional(),
  media: mediaSpec.optional(),
  messageId: str.optional(),
  emoji: str.optional(),
  vcards: z.array(str).optional(),
  pinned: bool.optional(),
  pinExpiration: z.enum(['24h', '7d', '30d']).optional(),
  isForwarded: bool.optional(),
  mentions: z.array(str).optional(),
});

/** The network operation inside `network.perform`: its name must be known, its arguments are checked per operation. */
const performArgs = z.object({ name: z.string(), args: z.unknown() }).superRefine((value, context) => {
  const schemas = (OPERATION_SCHEMAS as Record<string, { args: z.ZodType } | undefined>)[value.name];
  if (!schemas) {
    context.addIssue({ code: 'custom', path: ['name'], message: `unknown network operation ${value.name}` });
    return;
  }
  const parsed = schemas.args.safeParse(value.args);
  if (!parsed.success) for (const issue of parsed.error.issues) context.addIssue({ ...issue, path: ['args', ...issue.path] });
}) as unknown as z.ZodType<CommandContract['network.perform']['args']>;

export const COMMAND_SCHEMAS: CommandSchemas = {
  'session.qr': { args: none, result: z.object({ code: str }) },
  'session.pairCode': { args: z.object({ phone: str }), result: z.object({ code: str }) },
  'session.logout': { args: none, result: z.object({ loggedOut: bool }) },
  'session.restart': { args: none, result: z.object({ restarted: bool }) },
  'session.flushHistory': { args: none, result: z.object({ accepted: bool }) },
  // The result is checked per operation by `decodeOperationResult`, which knows the operation's name.
  'network.perform': { args: performArgs, result: z.unknown() },

  'sandbox.pair': { args: z.object({ phone: str.optional(), error: str.optional() }), result: z.object({ deviceId: str }) },
  'sandbox.connection': { args: z.object({ state: z.enum(['offline', 'online']) }), result: z.object({ online: bool }) },
  'sandbox.logout': { args: none, result: z.object({ loggedOut: bool }) },
  'sandbox.contact': {
    args: z.object({ id: str, pushName: str.optional(), fullName: str.optional(), businessName: str.optional(), lid: str.optional() }),
    result: id,
  },
  'sandbox.group': {
    args: z.object({ name: str, participants: z.array(str), admins: z.array(str), selfIsAdmin: bool, community: bool }),
    result: id,
  },
  'sandbox.inbound': { args: inboundSpec, result: id },
  'sandbox.inboundBatch': { args: z.object({ messages: z.array(inboundSpec) }), result: z.object({ ids: z.array(str) }) },
  'sandbox.receipt': {
    args: z.object({ messageId: str, status: z.enum(['delivered', 'read', 'played']), from: str.optional() }),
    result: id,
  },
  'sandbox.delete': { args: z.object({ messageId: str, forEveryone: bool }), result: id },
  'sandbox.edit': { args: z.object({ messageId: str, text: str }), result: id },
  'sandbox.star': { args: z.object({ messageId: str, starred: bool }), result: id },
  'sandbox.presence': {
    args: z.object({ from: str, state: z.enum(['available', 'unavailable', ...CHAT_PRESENCE_STATES]), chatId: str.optional() }),
    result: id,
  },
  'sandbox.chatSetting': {
    args: z.object({
      chatId: str,
      settingType: z.enum(CHAT_SETTING_TYPES),
      enabled: bool.optional(),
      muteEndTime: str.optional(),
      expiration: z.enum(['off', '24h', '7d', '90d']).optional(),
      from: str.optional(),
    }),
    result: id,
  },
  'sandbox.profile': {
    args: z.object({ id: str, pushName: str.optional(), about: str.optional(), picture: bool.optional() }),
    result: id,
  },
  'sandbox.groupChange': {
    args: z.object({
      groupId: str,
      by: str.optional(),
      join: z.array(str).optional(),
      leave: z.array(str).optional(),
      promote: z.array(str).optional(),
      demote: z.array(str).optional(),
      name: str.optional(),
      topic: str.optional(),
      locked: bool.optional(),
      announce: bool.optional(),
      picture: bool.optional(),
    }),
    result: id,
  },
  'sandbox.newsletterJoin': { args: z.object({ name: str, role: str }), result: id },
  'sandbox.newsletterLeave': { args: id, result: id },
  'sandbox.newsletterMute': { args: z.object({ id: str, muted: bool }), result: id },
  'sandbox.undecryptable': { args: z.object({ from: str, reason: str, attempts: num }), result: id },
  'sandbox.callOffer': { args: z.object({ from: str, video: bool, groupId: str.optional() }), result: id },
  'sandbox.callAccept': { args: id, result: id },
  'sandbox.callEnd': { args: z.object({ id: str, reason: z.enum(['ended', 'rejected']) }), result: id },
  'sandbox.groupJoinRequest': { args: z.object({ groupId: str, from: str }), result: id },
  'sandbox.user': {
    args: z.object({
      phone: str,
      lid: str.optional(),
      pushName: str.optional(),
      about: str.optional(),
      picture: bool.optional(),
      businessName: str.optional(),
      verified: bool.optional(),
      savedYou: bool.optional(),
      privacy: z.object({ status: str.optional(), profile: str.optional() }).optional(),
    }),
    result: id,
  },
  'sandbox.businessProfile': {
    args: z.object({
      id: str,
      name: str,
      description: str.optional(),
      address: str.optional(),
      email: str.optional(),
      website: str.optional(),
      latitude: num.optional(),
      longitude: num.optional(),
      categories: z.array(str).optional(),
    }),
    result: id,
  },
  'sandbox.profilePicture': { args: z.object({ id: str, hidden: bool }), result: z.object({ id: str, pictureId: str }) },
  'sandbox.channel': {
    args: z.object({ name: str, description: str.optional(), subscriberCount: num.optional(), verified: bool.optional() }),
    result: z.object({ id: str, inviteCode: str }),
  },
  'sandbox.refusal': {
    args: z.object({ chatId: str, code: z.union([z.literal(REFUSAL_CODES), z.null()]), times: num.optional() }),
    result: id,
  },
  'sandbox.linkDrop': { args: z.object({ chatId: str, times: num.optional() }), result: id },
  'sandbox.statusPrivacy': { args: z.object({ type: z.enum(['contacts', 'blacklist', 'whitelist']), list: z.array(str) }), result: id },
};

/** The request envelope; `args` is decoded separately by the command's own schema once its name is known. */
export const commandRequestSchema = z.object({
  v: wireVersionField,
  requestId: str,
  instanceId: str,
  name: str,
  args: z.unknown(),
  deadline: num,
  replyTo: str,
});

export type CommandRequestEnvelope = z.output<typeof commandRequestSchema>;

/** A command request as the worker decodes it: the envelope, then the named command's arguments. */
export function isKnownCommand(name: string): name is CommandName {
  return Object.prototype.hasOwnProperty.call(COMMAND_SCHEMAS, name);
}

const errorCodes = Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]];

/**
 * The reply envelope. An error code this process does not know (a newer worker's) reads as `internal` with the worker's
 * detail, rather than failing the decode.
 */
export const commandReplySchema = z.object({ v: wireVersionField, requestId: str }).and(
  z.union([
    z.object({ ok: z.literal(true), result: z.unknown() }),
    z.object({ ok: z.literal(false), notOwner: z.literal(true) }),
    z.object({
      ok: z.literal(false),
      code: z.string().transform((code): ErrorCode => ((errorCodes as string[]).includes(code) ? (code as ErrorCode) : 'internal')),
      detail: str.optional(),
    }),
  ]),
) satisfies z.ZodType<CommandReply>;

/** What a process writes: the current version stamped on the envelope. */
export function commandRequestOut<N extends CommandName>(request: CommandRequest<N>): CommandRequest<N> & { v: number } {
  return { v: COMMAND_WIRE_VERSION, ...request };
}

export function commandReplyOut(reply: CommandReply): CommandReply & { v: number } {
  return { v: COMMAND_WIRE_VERSION, ...reply };
}
