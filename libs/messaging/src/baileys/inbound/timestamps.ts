/** A protobuf integer as Baileys hands it over: a number, or a `Long` (or its plain `{low, high}` JSON form). */
export type ProtoInteger = number | { toNumber(): number } | { low: number; high: number } | null | undefined;

/** Same reading as Baileys' own `toNumber`; undefined when absent. */
export function toNumber(value: ProtoInteger | string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const parsed = Number(value);
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  if ('toNumber' in value) return value.toNumber();
  return value.high ? value.high * 2 ** 32 + (value.low >>> 0) : value.low;
}

/** A time the network gives in seconds since the epoch; undefined when absent or zero. */
export function fromSeconds(value: ProtoInteger | string): Date | undefined {
  const seconds = toNumber(value);
  return seconds ? new Date(seconds * 1000) : undefined;
}

/** A time the network gives in milliseconds since the epoch; undefined when absent or zero. */
export function fromMillis(value: ProtoInteger | string): Date | undefined {
  const millis = toNumber(value);
  return millis ? new Date(millis) : undefined;
}
