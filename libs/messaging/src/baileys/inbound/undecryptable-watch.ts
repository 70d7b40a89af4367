import type { NormalisedEvent } from '@app/contracts';
import { normalise, type Actor } from '../../events/normalise';

/** What the first failed copy of a message says about it: enough to report it if no decryptable copy follows. */
export interface FailedCopy {
  id: string;
  chatId: string;
  sender: Actor;
  time: Date;
  reason: string;
}

/** `recovered`: a decryptable copy followed a failed one. `reported`: `message_undecryptable` went out. */
export type UndecryptableOutcome = 'recovered' | 'reported';

export interface UndecryptableWatchOptions {
  /** How long after the last failed copy the failure is final. */
  finalAfterMs: number;
  /**
   * Failed copies after which Baileys asks no more (its first copy plus one per retry receipt it sends: rc14
   * `sendRetryRequest` stops once `MessageRetryManager.hasExceededMaxRetries`), so the failure is final at once.
   */
  maxFailedCopies: number;
  /** Messages watched at once; beyond it the oldest is reported now rather than dropped. */
  maxWatched: number;
  emit(event: NormalisedEvent): void;
  observe?(outcome: UndecryptableOutcome): void;
}

interface Watched {
  copy: FailedCopy;
  attempts: number;
  timer: NodeJS.Timeout;
}

/**
 * Messages whose copies failed to decrypt, until a decryptable copy arrives or the failure is final. Baileys turns a
 * copy it cannot decrypt into a `CIPHERTEXT` stub, asks the sender again (`<receipt type="retry">`) and, when a resend
 * decrypts, emits the real message under the same id; a sender that is offline or cannot help never answers. So a
 * failure becomes `message_undecryptable` only after `finalAfterMs` without a decryptable copy, or at once when Baileys
 * stopped asking; a resend that arrives in time is just the `message`. Outlives sockets (a resend may come after a
 * reconnect) and is flushed when the session closes, since nothing would ask again after that.
 */
export class UndecryptableWatch {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly options: UndecryptableWatchOptions) {}

  /** Another copy of the message failed to decrypt. */
  failed(copy: FailedCopy): void {
    const known = this.watched.get(copy.id);
    if (known) clearTimeout(known.timer);
    else if (this.watched.size >= this.options.maxWatched) this.finish(this.watched.keys().next().value as string);
    const attempts = (known?.attempts ?? 0) + 1;
    const entry: Watched = {
      copy: known ? { ...known.copy, reason: copy.reason } : copy,
      attempts,
      timer: setTimeout(() => this.finish(copy.id), this.options.finalAfterMs),
    };
    entry.timer.unref();
    this.watched.set(copy.id, entry);
    if (attempts >= this.options.maxFailedCopies) this.finish(copy.id);
  }

  /** A copy of the message decrypted: whatever failed before is not reported. */
  decrypted(id: string): void {
    const known = this.watched.get(id);
    if (!known) return;
    clearTimeout(known.timer);
    this.watched.delete(id);
    this.options.observe?.('recovered');
  }

  /** Reports every watched message now: the session ends, and nothing would ask for them again. */
  flush(): void {
    for (const id of [...this.watched.keys()]) this.finish(id);
  }

  /** Forgets every watched message without a report (the device itself is gone). */
  clear(): void {
    for (const { timer } of this.watched.values()) clearTimeout(timer);
    this.watched.clear();
  }

  private finish(id: string): void {
    const known = this.watched.get(id);
    if (!known) return;
    clearTimeout(known.timer);
    this.watched.delete(id);
    this.options.emit(normalise.messageUndecryptable({ ...known.copy, attempts: known.attempts }));
    this.options.observe?.('reported');
  }
}
