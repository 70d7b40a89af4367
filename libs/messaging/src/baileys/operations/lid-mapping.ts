import type { BaileysContext } from '../baileys-context';

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
