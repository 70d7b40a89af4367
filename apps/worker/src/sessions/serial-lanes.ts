/** Runs tasks one after another per key (e.g. per instance), so what happened first is written first. */
export class SerialLanes {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves when every task queued so far has finished. */
  async drain(): Promise<void> {
    await Promise.all([...this.tails.values()]);
  }
}
