import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CredentialRepository, type KeyPrincipal } from '@app/database';
import { InvalidationBus } from '@app/redis';
import { apiKeyKind, hashApiKey } from '@app/security';

const KEY_TOPIC = 'api-key';
const INSTANCE_TOPIC = 'instance';
const MAX_ENTRIES = 50_000;

interface Cached<T> {
  value: T;
  expiresAt: number;
}

/**
 * Resolves API keys to principals. Lookups are cached in-process only while the Redis invalidation
 * channel is live, so a revoked key stops working on every replica as soon as the revocation is published.
 */
@Injectable()
export class KeyResolver implements OnModuleInit {
  private readonly principals = new Map<string, Cached<KeyPrincipal>>();
  private readonly owners = new Map<string, Cached<string>>();
  /**
   * Bumped by every key revocation heard of (here or from another replica): a lookup that overlapped one may have read
   * the key as valid just before it was revoked, and is answered but not cached.
   */
  private keyGeneration = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly credentials: CredentialRepository,
    private readonly bus: InvalidationBus,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(KEY_TOPIC, (hash) => this.forgetKey(hash));
    this.bus.subscribe(INSTANCE_TOPIC, (instanceId) => this.owners.delete(instanceId));
    this.bus.onLost(() => {
      this.keyGeneration += 1;
      this.principals.clear();
      this.owners.clear();
    });
  }

  /** The key's principal and hash (the key's id for rate limits), or null for a malformed or unknown key. */
  async resolve(key: string): Promise<{ principal: KeyPrincipal; keyHash: string } | null> {
    if (!apiKeyKind(key)) return null;
    const keyHash = hashApiKey(key);
    const cached = this.fresh(this.principals, keyHash);
    if (cached) return { principal: cached, keyHash };
    const generation = this.keyGeneration;
    const principal = await this.credentials.principalForKeyHash(keyHash);
    if (!principal) return null;
    if (generation === this.keyGeneration) this.remember(this.principals, keyHash, principal);
    return { principal, keyHash };
  }

  async ownerOf(instanceId: string): Promise<string | null> {
    const cached = this.fresh(this.owners, instanceId);
    if (cached) return cached;
    const owner = await this.credentials.ownerOfInstance(instanceId);
    if (owner) this.remember(this.owners, instanceId, owner);
    return owner;
  }

  /** Tells every replica (this one included) that these key hashes are no longer valid. */
  async revokeKeyHashes(hashes: string[]): Promise<void> {
    for (const hash of hashes) {
      this.forgetKey(hash);
      await this.bus.publish(KEY_TOPIC, hash);
    }
  }

  /** Runs on every replica with the hash of each key rotated, regenerated or revoked anywhere. */
  onKeyRevoked(listener: (keyHash: string) => void): void {
    this.bus.subscribe(KEY_TOPIC, listener);
  }

  /** Runs on every replica with the id of each instance deleted (or whose owner changed) anywhere. */
  onInstanceForgotten(listener: (instanceId: string) => void): void {
    this.bus.subscribe(INSTANCE_TOPIC, listener);
  }

  private forgetKey(hash: string): void {
    this.keyGeneration += 1;
    this.principals.delete(hash);
  }

  async forgetInstance(instanceId: string): Promise<void> {
    this.owners.delete(instanceId);
    await this.bus.publish(INSTANCE_TOPIC, instanceId);
  }

  private fresh<T>(cache: Map<string, Cached<T>>, key: string): T | undefined {
    if (!this.bus.isLive) return undefined;
    const entry = cache.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.value;
    cache.delete(key);
    return undefined;
  }

  private remember<T>(cache: Map<string, Cached<T>>, key: string, value: T): void {
    if (!this.bus.isLive || this.config.keyCacheTtlMs === 0) return;
    if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value as string);
    cache.set(key, { value, expiresAt: Date.now() + this.config.keyCacheTtlMs });
  }
}
