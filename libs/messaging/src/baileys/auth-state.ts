import { FencedOutError, type Fence, type NetworkKeyWrite } from '@app/database';
import { bufferJson } from './buffer-json';

/** The part of the auth repository the auth state needs (a fake in unit tests, PostgreSQL in production). */
export interface AuthStore {
  credentials(instanceId: string): Promise<string | null>;
  saveCredentials(instanceId: string, json: string, fence?: Fence): Promise<void>;
  keys(instanceId: string, type: string, ids: string[]): Promise<Map<string, string>>;
  writeKeys(instanceId: string, writes: NetworkKeyWrite[], fence?: Fence): Promise<void>;
  clear(instanceId: string): Promise<void>;
}

/** Baileys' Signal key store shape: `set` takes `{[type]: {[id]: value | null}}`, null deleting the key. */
export interface SignalKeyStore {
  get(type: string, ids: string[]): Promise<Record<string, unknown>>;
  set(data: Record<string, Record<string, unknown> | undefined>): Promise<void>;
  clear(): Promise<void>;
}

export interface AuthState<Credentials extends object> {
  state: { creds: Credentials; keys: SignalKeyStore };
  /** Saves the whole credentials object as it is now (Baileys mutates it in place on `creds.update`). */
  saveCreds(): Promise<void>;
  /** Settles once every credentials save asked for so far has been written (or failed). */
  flush(): Promise<void>;
  /** Forgets credentials and keys: the device was logged out. */
  clear(): Promise<void>;
}

export interface AuthStateOptions<Credentials extends object> {
  instanceId: string;
  store: AuthStore;
  /** Fresh credentials for an instance that never paired (Baileys' `initAuthCreds`). */
  initCredentials: () => Credentials;
  /** Turns a stored value back into what Baileys expects (app-state sync keys are protobuf objects). */
  revive?: (type: string, value: unknown) => unknown;
  /** The worker's shard lease: every credential and key write is checked against it by PostgreSQL in the same statement. */
  fence?: Fence;
  /** Called when such a write was refused (FencedOutError, which the write still rejects with). */
  onFencedOut?: () => void;
}

/**
 * An instance's Baileys auth state kept in PostgreSQL only: credentials saved whole and in order, every key `set`
 * written in one transaction. A second worker reconstructs the same state from the database alone.
 */
export async function loadAuthState<Credentials extends object>(options: AuthStateOptions<Credentials>): Promise<AuthState<Credentials>> {
  const { instanceId, store, fence } = options;
  const refusedIsReported = (error: unknown): never => {
    if (error instanceof FencedOutError) options.onFencedOut?.();
    throw error;
  };
  const stored = await store.credentials(instanceId);
  const creds = stored ? bufferJson.parse<Credentials>(stored) : options.initCredentials();
  const revive = options.revive ?? ((_type: string, value: unknown) => value);
  let credentialWrites: Promise<void> = Promise.resolve();

  const keys: SignalKeyStore = {
    async get(type, ids) {
      const values = await store.keys(instanceId, type, ids);
      const found: Record<string, unknown> = {};
      for (const [id, json] of values) found[id] = revive(type, bufferJson.parse(json));
      return found;
    },
    async set(data) {
      const writes: NetworkKeyWrite[] = [];
      for (const [type, entries] of Object.entries(data)) {
        for (const [id, value] of Object.entries(entries ?? {})) {
          writes.push({ type, id, value: value === null || value === undefined ? null : bufferJson.stringify(value) });
        }
      }
      await store.writeKeys(instanceId, writes, fence).catch(refusedIsReported);
    },
    clear: () => store.clear(instanceId),
  };

  return {
    state: { creds, keys },
    saveCreds() {
      // Serialised so an older snapshot never lands after a newer one.
      const snapshot = bufferJson.stringify(creds);
      credentialWrites = credentialWrites
        .catch(() => undefined)
        .then(() => store.saveCredentials(instanceId, snapshot, fence).catch(refusedIsReported));
      return credentialWrites;
    },
    async flush() {
      await credentialWrites.catch(() => undefined);
    },
    async clear() {
      // A save still in flight would otherwise land after the delete and bring the dead credentials back.
      await credentialWrites.catch(() => undefined);
      await store.clear(instanceId);
    },
  };
}
