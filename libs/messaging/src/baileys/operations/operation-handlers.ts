import type { BaileysContext } from '../baileys-context';

/** One handler per operation of a resource group, typed from its contract. */
export type BaileysOperationHandlers<Operations> = {
  [N in keyof Operations]: Operations[N] extends { args: infer Args; result: infer Result }
    ? (context: BaileysContext, args: Args) => Promise<Result>
    : never;
};
