/** Lets callers wait, with a deadline, for something that a later state change may make true. */
export class Condition {
  private readonly waiting = new Set<() => void>();

  /** Re-checks every waiter; call after each change of the state the tests read. */
  notify(): void {
    for (const check of [...this.waiting]) check();
  }

  /** Resolves with the test's result as soon as it holds, or once `timeoutMs` passed. */
  until(test: () => boolean, timeoutMs: number): Promise<boolean> {
    if (test()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (result: boolean) => {
        clearTimeout(timer);
        this.waiting.delete(check);
        resolve(result);
      };
      const check = () => {
        if (test()) finish(true);
      };
      const timer = setTimeout(() => finish(test()), timeoutMs);
      timer.unref();
      this.waiting.add(check);
    });
  }
}
