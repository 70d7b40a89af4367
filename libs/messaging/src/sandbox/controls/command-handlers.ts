/** What carrying out a command needs of the worker's sessions, beyond the network itself. */
export interface SessionControl {
  /** Starts the instance's session unless one is running (a phone can only pair with a session offering a code). */
  ensure(instanceId: string): Promise<unknown>;
  /** Reconnects the instance's session now instead of at its next retry. */
  reconnectNow(instanceId: string): void;
}

/** Who a command is for, and the worker's sessions it may need. */
export interface CommandContext {
  instanceId: string;
  sessions: SessionControl;
}

/** One handler per command of a contract, typed from it: a table of this type names every command. */
export type CommandHandlers<Commands> = {
  [N in keyof Commands]: Commands[N] extends { args: infer Args; result: infer Result }
    ? (context: CommandContext, args: Args) => Promise<Result>
    : never;
};
