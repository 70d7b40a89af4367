import { z } from 'zod';

/** The leaf schemas every wire table is built from. */
export const str = z.string();
export const bool = z.boolean();
export const num = z.number();
/** Arguments or a result with no fields. */
export const none = z.object({}) as z.ZodType<Record<string, never>>;
