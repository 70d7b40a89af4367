import { EventEmitter } from 'node:events';
import type { AppConfig } from '@app/config';
import { AppError } from '@app/contracts';
import { PREVIOUS_RELEASE } from '../../contracts/src/wire/previous-release.fixtures';
import { CommandClient } from './command-client';

/** A client over a fake Redis whose one worker answers every request with `answer(request)` (raw JSON text). */
function clientAnswering(answer: (request: { requestId: string; v?: number }) => string | undefined) {
  const replies = Object.assign(new EventEmitter(), { subscribe: () => Promise.resolve() });
  const published: Record<string, unknown>[] = [];
  const redis = {
    key: (...parts: string[]) => `gw:${parts.join(':')}`,
    subscriber: () => replies,
    publish: (_channel: string, message: string) => {
      const request = JSON.parse(message) as { requestId: string };
      published.push(request);
      const text = answer(request);
      if (text !== undefined) setImmediate(() => replies.emit('message', 'reply', text));
      return Promise.resolve(1);
    },
  };
  const owners = { ownerOf: () => Promise.resolve('w1') };
  const client = new CommandClient({ queuePrefix: 'gw', shardCount: 1 } as AppConfig, redis as never, owners as never);
  return { client, published };
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

describe('CommandClient decoding what workers answer', () => {
  const group = PREVIOUS_RELEASE.replyOk.result;

  it("stamps v on its request, and reads a previous-release worker's reply (no v) through the operation's schema", async () => {
    const { client, published } = clientAnswering(({ requestId }) => JSON.stringify({ requestId, ok: true, result: group }));
    await expect(client.perform('ins_1', 'groups.info', { groupId: group.jid }, 2_000)).resolves.toEqual(group);
    expect(published[0]).toMatchObject({ v: 2, name: 'network.perform', args: { name: 'groups.info', args: { groupId: group.jid } } });
  });

  it('answers 500 naming the field when a result does not match the operation, instead of passing it on', async () => {
    const { participants: _dropped, ...broken } = group;
    const { client } = clientAnswering(({ requestId }) => JSON.stringify({ v: 2, requestId, ok: true, result: broken }));
    const error = await failure(client.perform('ins_1', 'groups.info', { groupId: group.jid }, 2_000));
    expect([error.status, error.detail]).toEqual([
      500,
      'the worker answered groups.info with a result this API cannot read (participants: Invalid input: expected array, received undefined)',
    ]);
  });

  it("answers a newer worker's reply version with 500 at once, not after the deadline", async () => {
    const { client } = clientAnswering(({ requestId }) => JSON.stringify({ v: 99, requestId, ok: true, result: { code: 'x' } }));
    const started = Date.now();
    const error = await failure(client.request('ins_1', 'session.qr', {}, 5_000));
    expect(Date.now() - started).toBeLessThan(1_000);
    expect([error.status, error.detail]).toEqual([
      500,
      "the worker's reply could not be read (version 99 is newer than this process understands (2))",
    ]);
  });

  it("passes on a worker's error reply, an error code it does not know as internal", async () => {
    const { client } = clientAnswering(({ requestId }) => JSON.stringify({ requestId, ok: false, code: 'brand_new', detail: 'why' }));
    const error = await failure(client.request('ins_1', 'session.qr', {}, 2_000));
    expect([error.status, error.detail]).toEqual([500, 'why']);
  });
});
