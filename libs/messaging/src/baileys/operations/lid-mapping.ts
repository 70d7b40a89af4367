import type { BaileysContext } from '../baileys-context';

/** The LID of a phone number: Baileys answers from its mapping store and asks the network for what it lacks. */
export async function lidOf(context: BaileysContext, phoneJid: string): Promise<string | undefined> {
  return (await context.socket.signalRepository.lidMapping.getLIDForPN(phoneJid)) ?? undefined;
}

/** The phone number behind a LID, as far as Baileys' mapping store knows it (the network offers no such lookup). */
export async function phoneOf(context: BaileysContext, lid: string): Promise<string | undefined> {
  return (await context.socket.signalRepository.lidMapping.getPNForLID(lid)) ?? undefined;
}
