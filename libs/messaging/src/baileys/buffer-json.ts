/**
 * JSON with binary values, in the same form as Baileys' `BufferJSON` (`{type: 'Buffer', data: <base64>}`), so the
 * stored auth state stays readable by Baileys' own helpers.
 */
export const bufferJson = {
  stringify(value: unknown): string {
    return JSON.stringify(value, (_key, current: unknown) => {
      if (Buffer.isBuffer(current) || current instanceof Uint8Array)
        return { type: 'Buffer', data: Buffer.from(current).toString('base64') };
      if (isBufferShape(current)) return { type: 'Buffer', data: Buffer.from(current.data as number[]).toString('base64') };
      return current;
    });
  },

  parse<T>(text: string): T {
    return JSON.parse(text, (_key, current: unknown) => {
      if (isBufferShape(current)) {
        const data = current.data;
        return typeof data === 'string' ? Buffer.from(data, 'base64') : Buffer.from((data as number[] | undefined) ?? []);
      }
      return current;
    }) as T;
  },
};

/** A Buffer after `toJSON` (`{type: 'Buffer', data: number[]}`) or as stored (`data` in base64). */
function isBufferShape(value: unknown): value is { type: 'Buffer'; data: unknown } {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'Buffer' && 'data' in value;
}
