import type { AuthenticationCreds } from '@whiskeysockets/baileys';
import type { NetworkKeyWrite } from '@app/database';
import type { AuthStore } from '../auth-state';
import { bufferJson } from '../buffer-json';

/** NetworkAuthRepository's behaviour, in memory: what the session saved, and whether it was cleared. */
export class MemoryAuthStore implements AuthStore {
  creds: string | null = null;
  readonly rows = new Map<string, string>();
  readonly cleared: string[] = [];
  /** How long a credentials write takes (PostgreSQL is not instant). */
  saveDelayMs = 0;

  credentials(): Promise<string | null> {
    return Promise.resolve(this.creds);
  }

  async saveCredentials(_instanceId: string, json: string): Promise<void> {
    if (this.saveDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.saveDelayMs));
    this.creds = json;
  }

  keys(_instanceId: string, type: string, ids: string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    for (const id of ids) {
      const value = this.rows.get(`${type}/${id}`);
      if (value !== undefined) found.set(id, value);
    }
    return Promise.resolve(found);
  }

  writeKeys(_instanceId: string, writes: NetworkKeyWrite[]): Promise<void> {
    for (const write of writes) {
      if (write.value === null) this.rows.delete(`${write.type}/${write.id}`);
      else this.rows.set(`${write.type}/${write.id}`, write.value);
    }
    return Promise.resolve();
  }

  clear(instanceId: string): Promise<void> {
    this.cleared.push(instanceId);
    this.creds = null;
    this.rows.clear();
    return Promise.resolve();
  }

  /** The saved credentials as Baileys would load them. */
  saved(): AuthenticationCreds | null {
    return this.creds === null ? null : bufferJson.parse<AuthenticationCreds>(this.creds);
  }
}
