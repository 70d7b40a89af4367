import type { BaileysContext } from '../baileys-context';

/** Whether a JID (any device, phone-number or LID form) is this instance's own account. */
export function isSelf(context: BaileysContext, jid: string): boolean {
  const user = context.lib.jidNormalizedUser(jid);
  if (!user) return false;
  return (
    user === context.lib.jidNormalizedUser(context.selfJid) ||
    (!!context.selfLid && user === context.lib.jidNormalizedUser(context.selfLid))
  );
}
