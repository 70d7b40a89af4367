import type { SandboxLink } from '../sandbox-link';

/** Who asks the simulated network for an operation. */
export interface OperationContext {
  instanceId: string;
  /** The account's own user JID. */
  self: string;
  /** The instance's open link: events the operation causes are delivered through it. */
  session: SandboxLink;
}

/** One handler per operation of a resource group, typed from its contract. */
export type OperationHandlers<Operations> = {
  [N in keyof Operations]: Operations[N] extends { args: infer Args; result: infer Result }
    ? (context: OperationContext, args: Args) => Promise<Result>
    : never;
};
