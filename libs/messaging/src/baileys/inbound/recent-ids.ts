/** A bounded set of ids: remembers the newest `limit` and forgets the oldest first. */
export class RecentIds {
  private readonly ids = new Set<string>();

  constructor(private readonly limit = 5_000) {}

  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value as string);
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  delete(id: string): void {
    this.ids.delete(id);
  }
}
