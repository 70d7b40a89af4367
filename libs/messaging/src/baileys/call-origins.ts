/**
 * Who each recent call came from, exactly as the network named the caller in the offer. rc14's `rejectCall(callId,
 * callFrom)` must address the reject to that JID (device included, and often a LID), while the gateway's events and
 * the client name the caller by phone number. Call ids are unique, so the newest `limit` calls are remembered.
 */
export class CallOrigins {
  private readonly callers = new Map<string, string>();

  constructor(private readonly limit = 500) {}

  remember(callId: string, from: string): void {
    this.callers.delete(callId);
    this.callers.set(callId, from);
    if (this.callers.size > this.limit) this.callers.delete(this.callers.keys().next().value as string);
  }

  from(callId: string): string | undefined {
    return this.callers.get(callId);
  }
}
