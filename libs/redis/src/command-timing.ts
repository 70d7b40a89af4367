import type { Command } from 'ioredis';
import type { RedisConnection } from './connections';

/** Told the name and round-trip time of each command a connection completes. */
export type CommandTimingListener = (command: string, seconds: number) => void;

/**
 * Commands that wait by design (blocking pops, stream reads, subscriptions): their time says how long nothing came,
 * not how fast Redis answers, so they are not timed.
 */
const WAITING_COMMANDS = new Set([
  'blpop',
  'brpop',
  'brpoplpush',
  'blmove',
  'bzpopmin',
  'bzpopmax',
  'bzmpop',
  'blmpop',
  'xread',
  'xreadgroup',
  'subscribe',
  'psubscribe',
  'ssubscribe',
  'unsubscribe',
  'punsubscribe',
  'sunsubscribe',
  'quit',
]);

/**
 * Times every command sent on `connection` from the call to its answer (queueing in the client included: that is the
 * latency the caller sees). `listener()` is read per command, so timing starts whenever one is set. The cost per command
 * is one clock read and one callback on the command's promise.
 */
export function timeCommands(connection: RedisConnection, listener: () => CommandTimingListener | undefined): void {
  const send = connection.sendCommand.bind(connection) as (command: Command, ...rest: unknown[]) => unknown;
  connection.sendCommand = ((command: Command, ...rest: unknown[]) => {
    const observe = listener();
    if (observe && !WAITING_COMMANDS.has(command.name)) {
      const startedAt = performance.now();
      const done = () => observe(command.name, (performance.now() - startedAt) / 1000);
      command.promise.then(done, done);
    }
    return send(command, ...rest);
  }) as RedisConnection['sendCommand'];
}
