import { z } from 'zod';
import type { GroupMember } from '../operations';

/**
 * jsonb columns a process reads back. They carry no `v`: each is one array or value column, written and read by the
 * worker, whose shape only ever gains optional fields; a value that does not decode is treated as not stored (the
 * worker reads the group from the network again) and counted.
 */
export const groupMembersSchema = z.array(
  z.object({ jid: z.string(), lid: z.string().optional(), role: z.enum(['member', 'admin', 'superadmin']) }),
) satisfies z.ZodType<GroupMember[]>;
