/** Where the push names already known for people come from, beyond this socket's memory (the gateway's store). */
export type KnownPushName = (jid: string) => Promise<string | null | undefined>;

const REMEMBERED = 5_000;

/**
 * The push names this socket has met, so a changed name is announced once (`chat_push_name`, before the message that
 * carries it, as the sandbox does) and an unchanged one never, whichever batch or socket meets it next.
 */
export class PushNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly known?: KnownPushName) {}

  /**
   * Whether `name` replaces a different name known for `jid`. Remembers it. A first sighting is not announced: after
   * pairing the network's contact sync names most people, and announcing each again would only be noise.
   */
  async changed(jid: string, name: string): Promise<boolean> {
    const before = this.names.has(jid) ? this.names.get(jid) : await this.known?.(jid);
    this.names.delete(jid);
    this.names.set(jid, name);
    if (this.names.size > REMEMBERED) this.names.delete(this.names.keys().next().value as string);
    return typeof before === 'string' && before !== name;
  }
}
