import type { OperationName } from '../operations';
import type { SandboxCommands } from './sandbox';

export * from './sandbox';

/** What the API asks of an instance's session, carried out by the worker that runs it. */
export interface SessionCommands {
  'session.qr': { args: Record<string, never>; result: { code: string } };
  'session.pairCode': { args: { phone: string }; result: { code: string } };
  'session.logout': { args: Record<string, never>; result: { loggedOut: boolean } };
  'session.restart': { args: Record<string, never>; result: { restarted: boolean } };
  'session.flushHistory': { args: Record<string, never>; result: { accepted: boolean } };
  /** A network operation carried out by the instance's session (see NetworkOperations for its arguments and result). */
  'network.perform': { args: { name: OperationName; args: unknown }; result: unknown };
}

/**
 * Requests the API sends to the worker that owns an instance, and their answers. One name →
 * one argument type → one result type, so both sides are checked by the compiler.
 */
export type CommandContract = SessionCommands & SandboxCommands;

export type CommandName = keyof CommandContract;
export type CommandArgs<N extends CommandName> = CommandContract[N]['args'];
export type CommandResult<N extends CommandName> = CommandContract[N]['result'];

export interface CommandRequest<N extends CommandName = CommandName> {
  requestId: string;
  instanceId: string;
  name: N;
  args: CommandArgs<N>;
  /** Epoch ms after which the caller no longer waits; the worker drops the request. */
  deadline: number;
  replyTo: string;
}

/** A failure is an error code from the catalogue plus an optional detail (validation and forbidden texts). */
export type CommandReply =
  | { requestId: string; ok: true; result: unknown }
  | { requestId: string; ok: false; code: import('../errors').ErrorCode; detail?: string }
  /** The worker does not (or no longer) hold the instance's shard: ask the owner map again and resend. */
  | { requestId: string; ok: false; notOwner: true };

/** The command channel of one worker: commands are addressed to the owner of the instance's shard, not to the shard. */
export function workerCommandChannel(prefix: string, workerId: string): string {
  return `${prefix}:cmd:w:${workerId}`;
}
