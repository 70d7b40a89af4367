import type { WAVersion } from '@whiskeysockets/baileys';
import type { BaileysLibrary } from '../baileys-library';
import type { BaileysLogger } from './baileys-settings';

const FETCH_TIMEOUT_MS = 10_000;
/** Every instance meets a version refusal at about the same time; one fetch serves them all for a while. */
const REFRESH_EVERY_MS = 10 * 60_000;

/**
 * The WhatsApp Web version new sockets announce. Unset, Baileys sends the one it was released with; once the network
 * refuses that (405), the current one is fetched from WhatsApp Web and used from then on by every instance.
 */
export class WebVersion {
  private version: WAVersion | undefined;
  private refreshing: Promise<void> | undefined;
  private refreshedAt = -Infinity;

  constructor(private readonly now: () => number = Date.now) {}

  current(): WAVersion | undefined {
    return this.version;
  }

  refresh(lib: BaileysLibrary, logger: BaileysLogger): Promise<void> {
    if (this.now() - this.refreshedAt < REFRESH_EVERY_MS) return this.refreshing ?? Promise.resolve();
    this.refreshedAt = this.now();
    this.refreshing = this.fetch(lib, logger).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async fetch(lib: BaileysLibrary, logger: BaileysLogger): Promise<void> {
    const latest = await lib.fetchLatestWaWebVersion({ signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    if (latest.isLatest) {
      this.version = latest.version;
      logger.warn({ version: latest.version.join('.') }, 'WhatsApp Web version refreshed after the network refused the previous one');
    } else {
      logger.error({ err: latest.error }, 'the current WhatsApp Web version could not be fetched; retrying with the one in use');
    }
  }
}
