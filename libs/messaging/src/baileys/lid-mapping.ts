import type { BaileysContext } from './baileys-context';

/**
 * Baileys' mapping store answers with a device JID: `getPNForLID` always appends one (`447700900123:0@s.whatsapp.net`,
 * rc14 `Signal/lid-mapping.js`), and `getLIDForPN` keeps the device of the number it was given. The gateway names
 * people by their user JID, so both are normalised.
 */
function userOf(context: BaileysContext, jid: string | null | undefined): string | undefined {
  return jid ? context.lib.jidNormalizedUser(jid) || undefined : undefined;
}

/** The LID of a phone number: Baileys answers from its mapping store and asks the network for what it lacks. */
export async function lidOf(context: BaileysContext, phoneJid: string): Promise<string | undefined> {
  return userOf(context, await context.socket.signalRepository.lidMapping.getLIDForPN(phoneJid));
}

/** The phone number behind a LID, as far as Baileys' mapping store knows it (the network offers no such lookup). */
export async function phoneOf(context: BaileysContext, lid: string): Promise<string | undefined> {
  return userOf(context, await context.socket.signalRepository.lidMapping.getPNForLID(lid));
}

/**
 * The JIDs a chat's kept messages may be filed under. rc14 keys a received one-to-one message by the stanza's sender,
 * now usually the contact's LID (the phone number only rides along in `remoteJidAlt`), while the gateway's events name
 * that chat by phone number and our own sends are kept under the JID they went to. A person's chat is therefore both
 * of their JIDs, as far as Baileys' mapping store knows the pair; groups and other chats are their one JID.
 */
export async function chatIdentities(context: BaileysContext, chatJid: string): Promise<string[]> {
  const person = chatJid.endsWith('@s.whatsapp.net') ? 'phone' : chatJid.endsWith('@lid') ? 'lid' : undefined;
  if (!person || !context.socket.signalRepository?.lidMapping) return [chatJid];
  try {
    const other = person === 'phone' ? await lidOf(context, chatJid) : await phoneOf(context, chatJid);
    return other && other !== chatJid ? [chatJid, other] : [chatJid];
  } catch {
    // Without the mapping only the form given is known; its messages are still found.
    return [chatJid];
  }
}
