import { decodeEventEnvelope, EventDecodeError, parseEventEnvelope } from './envelope.js';

/** An envelope as the gateway sends it (webhook body and stream `data:`), previous release and current alike. */
const ENVELOPE = {
  eventId: 'evt_1795000000000_0011223344556677',
  instanceId: 'inst_1',
  eventType: 'message',
  receivedAt: '2026-11-28T03:00:00.000Z',
  eventData: { id: '3EB0AAAAAAAAAAAAAAAAAA', chatId: '14155550123@s.whatsapp.net', type: 'text', text: 'hi' },
};

function refusal(decode: () => unknown): string {
  try {
    decode();
  } catch (error) {
    if (error instanceof EventDecodeError) return error.message;
    throw error;
  }
  throw new Error('decoded, expected a refusal');
}

describe('event envelope decoder (client, no schema library)', () => {
  it('reads an envelope, keeping fields a newer gateway adds and event types it does not know', () => {
    expect(parseEventEnvelope(JSON.stringify(ENVELOPE))).toEqual(ENVELOPE);
    const newer = { ...ENVELOPE, eventType: 'message_edit_v9', traceId: 't' };
    expect(decodeEventEnvelope(newer)).toEqual(newer);
  });

  it('refuses what is not an envelope, naming the field and never its value', () => {
    expect(refusal(() => parseEventEnvelope('{"eventId"'))).toBe('the body is not JSON');
    expect(refusal(() => decodeEventEnvelope([ENVELOPE]))).toBe('the event is not a JSON object');
    expect(refusal(() => decodeEventEnvelope({ ...ENVELOPE, instanceId: 42 }))).toBe('instanceId: expected a non-empty string');
    expect(refusal(() => decodeEventEnvelope({ ...ENVELOPE, receivedAt: 'yesterday-secret' }))).toBe(
      'receivedAt: expected an ISO 8601 time',
    );
    expect(refusal(() => decodeEventEnvelope({ ...ENVELOPE, eventData: 'secret body' }))).toBe('eventData: expected an object');
  });
});
