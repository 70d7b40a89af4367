/** The answer of an operation that only reports success. */
export type NoResult = Record<string, never>;

/** One operation of the network: what the caller passes and what the network answers. */
export interface Operation<Args, Result = NoResult> {
  args: Args;
  result: Result;
}
