/**
 * Requests the API sends to the worker that owns an instance, and their answers. One name → one
 * argument type → one result type, so both sides are checked by the compiler.
 */
export interface SandboxGroupSpec {
  name: string;
  participants: string[];
  admins: string[];
  selfIsAdmin: boolean;
  community: boolean;
}

export interface SandboxInboundSpec {
  from: string;
  chatId?: string;
  type: 'text' | 'button_reply' | 'list_reply';
  text?: string;
  replyTo?: string;
  buttonId?: string;
  rowId?: string;
  pushName?: string;
}

export interface SandboxContactSpec {
  id: string;
  pushName?: string;
  fullName?: string;
  businessName?: string;
  lid?: string;
}

export interface CommandContract {
  'session.qr': { args: Record<string, never>; result: { code: string } };
  'session.pairCode': { args: { phone: string }; result: { code: string } };
  'session.logout': { args: Record<string, never>; result: { loggedOut: boolean } };
  'session.restart': { args: Record<string, never>; result: { restarted: boolean } };
  'session.flushHistory': { args: Record<string, never>; result: { accepted: boolean } };
  'sandbox.pair': { args: { phone?: string }; result: { deviceId: string } };
  'sandbox.connection': { args: { state: 'offline' | 'online' }; result: { online: boolean } };
  'sandbox.logout': { args: Record<string, never>; result: { loggedOut: boolean } };
  'sandbox.contact': { args: SandboxContactSpec; result: { id: string } };
  'sandbox.group': { args: SandboxGroupSpec; result: { id: string } };
  'sandbox.inbound': { args: SandboxInboundSpec; result: { id: string } };
  'sandbox.receipt': { args: { messageId: string; status: 'delivered' | 'read' }; result: { id: string } };
}

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
  { requestId: string; ok: true; result: unknown } | { requestId: string; ok: false; code: import('./errors').ErrorCode; detail?: string };

export function commandChannel(prefix: string, shard: number): string {
  return `${prefix}:cmd:${shard}`;
}
