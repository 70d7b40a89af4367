import { type z } from 'zod';
import { COMMAND_SCHEMAS, COMMAND_WIRE_VERSION, commandReplySchema, commandRequestOut, commandRequestSchema } from './commands';
import { decodeShape, decodeWire, decodeWireJson, onDecodeFailure, WireDecodeError, type WireBoundary } from './decode';
import { JOB_WIRE_VERSION, sendJobOut, sendJobSchema, webhookJobOut, webhookJobSchema } from './jobs';
import { OPERATION_SCHEMAS } from './operations';
import { PREVIOUS_RELEASE as OLD } from './previous-release.fixtures';
import { liveStatusSchema, REDIS_VALUE_WIRE_VERSION, sendingPauseSchema, workerResumeProgressSchema } from './redis-values';
import { decodeStoredSend, storedPayloadJson } from './sends';
import { groupMembersSchema } from './stores';

/** The error a decode throws, for its reason and version. */
function refusal(decode: () => unknown): WireDecodeError {
  try {
    decode();
  } catch (error) {
    if (error instanceof WireDecodeError) return error;
    throw error;
  }
  throw new Error('decoded, expected a refusal');
}

const versioned: { name: string; boundary: WireBoundary; schema: z.ZodType; current: number; old: object; current_: object }[] = [
  {
    name: 'command request',
    boundary: 'command_request',
    schema: commandRequestSchema,
    current: COMMAND_WIRE_VERSION,
    old: OLD.commandRequest,
    current_: commandRequestOut(OLD.commandRequest as never),
  },
  {
    name: 'command reply',
    boundary: 'command_reply',
    schema: commandReplySchema,
    current: COMMAND_WIRE_VERSION,
    old: OLD.replyOk,
    current_: { v: 2, ...OLD.replyOk },
  },
  {
    name: 'send job',
    boundary: 'send_job',
    schema: sendJobSchema,
    current: JOB_WIRE_VERSION,
    old: OLD.sendJob,
    current_: sendJobOut(OLD.sendJob),
  },
  {
    name: 'webhook job',
    boundary: 'webhook_job',
    schema: webhookJobSchema,
    current: JOB_WIRE_VERSION,
    old: OLD.webhookJob,
    current_: webhookJobOut(OLD.webhookJob),
  },
  {
    name: 'live status',
    boundary: 'live_status',
    schema: liveStatusSchema,
    current: REDIS_VALUE_WIRE_VERSION,
    old: OLD.liveStatus,
    current_: { v: 2, ...OLD.liveStatus, reason: 'proxy_unreachable' },
  },
  {
    name: 'sending pause',
    boundary: 'sending_pause',
    schema: sendingPauseSchema,
    current: REDIS_VALUE_WIRE_VERSION,
    old: OLD.sendingPause,
    current_: { v: 2, ...OLD.sendingPause },
  },
  {
    name: 'worker progress',
    boundary: 'worker_progress',
    schema: workerResumeProgressSchema,
    current: REDIS_VALUE_WIRE_VERSION,
    old: OLD.workerProgress,
    current_: { v: 2, ...OLD.workerProgress },
  },
];

describe.each(versioned)('$name', ({ boundary, schema, current, old, current_ }) => {
  it('reads what the previous release wrote (no v)', () => {
    expect(decodeWire(boundary, schema, current, old)).toMatchObject(old);
  });

  it('reads the current version', () => {
    expect(current_).toHaveProperty('v', current);
    expect(decodeWire(boundary, schema, current, JSON.parse(JSON.stringify(current_)))).toMatchObject(current_);
  });

  it('refuses a newer version by number, and counts it under its boundary', () => {
    const counted: WireBoundary[] = [];
    const stop = onDecodeFailure((failed) => counted.push(failed));
    const error = refusal(() => decodeWire(boundary, schema, current, { ...current_, v: current + 1 }));
    stop();
    expect(error.unknownVersion).toBe(current + 1);
    expect(error.reason).toBe(`version ${current + 1} is newer than this process understands (${current})`);
    expect(counted).toEqual([boundary]);
  });

  it('refuses a malformed value naming the field, never its value', () => {
    const [field] = Object.keys(old);
    const error = refusal(() => decodeWire(boundary, schema, current, { ...old, [field]: { secret: 'hunter2' } }));
    expect(error.unknownVersion).toBeUndefined();
    expect(error.reason).toContain(field);
    expect(error.reason).not.toContain('hunter2');
  });

  it('refuses a v that is not a version, and text that is not JSON', () => {
    expect(refusal(() => decodeWire(boundary, schema, current, { ...old, v: 'two' })).reason).toBe('v: not a version number');
    expect(refusal(() => decodeWireJson(boundary, schema, current, '{"oops"')).reason).toBe('not JSON');
  });
});

describe('command bus', () => {
  it('reads the replies the previous release writes: ok, error, not owner', () => {
    for (const reply of [OLD.replyOk, OLD.replyError, OLD.replyNotOwner]) {
      expect(decodeWire('command_reply', commandReplySchema, COMMAND_WIRE_VERSION, reply)).toEqual(reply);
    }
  });

  it("reads an error code it does not know (a newer worker's) as internal, keeping the worker's detail", () => {
    const reply = { v: 2, requestId: 'r', ok: false, code: 'brand_new', detail: 'why' };
    expect(decodeWire('command_reply', commandReplySchema, COMMAND_WIRE_VERSION, reply)).toMatchObject({ code: 'internal', detail: 'why' });
  });

  it("checks a command's arguments by its own schema, naming the field", () => {
    expect(decodeShape('command_request', COMMAND_SCHEMAS['session.pairCode'].args, OLD.pairCodeRequest.args)).toEqual({
      phone: '14155550123',
    });
    const error = refusal(() => decodeShape('command_request', COMMAND_SCHEMAS['session.pairCode'].args, { phone: 14155550123 }));
    expect(error.reason).toBe('phone: Invalid input: expected string, received number');
  });

  it("checks network.perform's operation name and its arguments by the operation's schema", () => {
    const perform = COMMAND_SCHEMAS['network.perform'].args;
    expect(decodeShape('command_request', perform, OLD.commandRequest.args)).toEqual(OLD.commandRequest.args);
    expect(refusal(() => decodeShape('command_request', perform, { name: 'groups.teleport', args: {} })).reason).toBe(
      'name: unknown network operation groups.teleport',
    );
    expect(refusal(() => decodeShape('command_request', perform, { name: 'groups.info', args: {} })).reason).toContain('args.groupId');
  });

  it('checks each operation result by its schema (network.perform no longer answers `unknown`)', () => {
    expect(decodeShape('command_reply', OPERATION_SCHEMAS['groups.info'].result, OLD.replyOk.result)).toEqual(OLD.replyOk.result);
    const { participants: _dropped, ...withoutParticipants } = OLD.replyOk.result;
    expect(refusal(() => decodeShape('command_reply', OPERATION_SCHEMAS['groups.info'].result, withoutParticipants)).reason).toBe(
      'participants: Invalid input: expected array, received undefined',
    );
    expect(decodeShape('command_reply', OPERATION_SCHEMAS['groups.list'].result, [OLD.replyOk.result])).toHaveLength(1);
  });
});

describe('stored send payloads', () => {
  const text = { text: 'Hi', mentions: ['447700900555@s.whatsapp.net'] };

  it('reads a payload without v (the previous release) and with the current v, dropping v', () => {
    expect(decodeStoredSend('text', 'c@s.whatsapp.net', text)).toEqual({ kind: 'text', chatJid: 'c@s.whatsapp.net', payload: text });
    const current = JSON.parse(storedPayloadJson(text)) as object;
    expect(current).toHaveProperty('v', 2);
    expect(decodeStoredSend('text', 'c@s.whatsapp.net', current)).toEqual({ kind: 'text', chatJid: 'c@s.whatsapp.net', payload: text });
    expect(JSON.parse(storedPayloadJson({}))).toEqual({ v: 2 });
  });

  it('refuses a newer version, an unknown kind and a payload not of its kind', () => {
    expect(refusal(() => decodeStoredSend('text', 'c', { ...text, v: 3 })).unknownVersion).toBe(3);
    expect(refusal(() => decodeStoredSend('hologram', 'c', text)).reason).toBe('unknown kind hologram');
    expect(refusal(() => decodeStoredSend('image', 'c', text)).reason).toBe('media: Invalid input');
  });
});

describe('stored group members (jsonb, no v)', () => {
  it('reads the members as the worker stores them, and names the member and field that is wrong', () => {
    expect(decodeShape('group_store', groupMembersSchema, OLD.groupMembers)).toEqual(OLD.groupMembers);
    const error = refusal(() =>
      decodeShape('group_store', groupMembersSchema, [...OLD.groupMembers, { jid: 'x@s.whatsapp.net', role: 'owner' }]),
    );
    expect(error.reason).toContain('2.role');
  });
});
