import { Injectable } from '@nestjs/common';
import { parseStoredSink, type CustomerScope, type EventSinkSettings, type InstanceStatus } from '@app/contracts';
import { SecretBox } from '@app/security';
import type { Instance } from '../generated/prisma/client';
import { PrismaService } from '../prisma.service';
import type { InstanceRecord, InstanceSettings, Page } from '../records';
import { StatementBatcher } from './statement-batcher';

export interface NewInstance {
  id: string;
  name: string;
  shard: number;
  sandbox: boolean;
  apiKey: { hash: string; prefix: string };
}

interface ListedInstanceRow {
  id: string;
  name: string;
  status: InstanceStatus;
  device_id: string | null;
  shard: number;
  sandbox: boolean;
  has_api_key: boolean;
  /** int8, which pg hands over as a string. */
  created_ms: string;
  use_custom_defaults: boolean;
  pull_mode: boolean;
  webhook_url: string | null;
  event_signing_secret_enc: string | null;
  history_sync: boolean;
  event_filters: string[];
  proxy_url_enc: string | null;
  status_reason: string | null;
  event_sink_enc: string | null;
  total: string;
  version: string;
}

const LIST_FILTER = `customer_id = $1 AND ($2::text IS NULL OR status::text = $2::text)`;

/**
 * Timestamps are stored in UTC without a zone (Prisma's convention); the epoch of such a value is taken as UTC whatever
 * the session's zone. Whole milliseconds as an integer: a Date is built from a number at a fraction of the cost of
 * parsing timestamp text, and the listing is the API's most-read page.
 */
const LIST_INSTANCES = `SELECT id, name, status::text AS status, device_id, shard, sandbox, api_key_hash IS NOT NULL AS has_api_key,
         (extract(epoch FROM date_trunc('milliseconds', created_at)) * 1000)::int8 AS created_ms, use_custom_defaults, pull_mode, webhook_url, event_signing_secret_enc,
         history_sync, event_filters, proxy_url_enc, status_reason, event_sink_enc, count(*) OVER () AS total,
         (SELECT instances_version FROM customers WHERE id = $1) AS version
  FROM instances WHERE ${LIST_FILTER}
  ORDER BY created_at, id OFFSET $3 LIMIT $4`;

const COUNT_INSTANCES = `SELECT count(*) AS total FROM instances WHERE ${LIST_FILTER}`;

/** Raised by PostgreSQL with every change to the customer's instances (see the instance_list_version migration). */
const INSTANCES_VERSIONS = {
  name: 'instances-versions',
  text: `SELECT id, instances_version AS version FROM customers WHERE id = ANY($1::text[])`,
};

/**
 * A page with the customer's instances version read in the same statement (so from the same snapshot); null when the
 * page has no rows to carry it.
 */
export type VersionedPage<T> = Page<T> & { version: string | null };

@Injectable()
export class InstanceRepository {
  /**
   * The version reads of one turn of the event loop go as one statement. Each is sent after its caller asked, so a
   * version read never predates a change its caller has already seen committed.
   */
  private readonly versionReads = new StatementBatcher<string, string | null>((customerIds) => this.readVersions(customerIds), {
    maxWeight: 1_000,
  });

  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  private toRecord(row: Instance): InstanceRecord {
    return {
      id: row.id,
      customerId: row.customerId,
      name: row.name,
      status: row.status,
      deviceId: row.deviceId,
      shard: row.shard,
      sandbox: row.sandbox,
      hasApiKey: row.apiKeyHash !== null,
      createdAt: row.createdAt,
      statusReason: row.statusReason,
      settings: {
        useCustomDefaults: row.useCustomDefaults,
        pullMode: row.pullMode,
        webhookUrl: row.webhookUrl,
        eventSigningSecret: this.secrets.decryptOptional(row.eventSigningSecret),
        historySync: row.historySync,
        eventFilters: row.eventFilters,
        proxyUrl: this.secrets.decryptOptional(row.proxyUrl),
        eventSink: this.sinkOf(row.eventSink),
      },
    };
  }

  private sinkOf(stored: string | null): EventSinkSettings | null {
    const json = this.secrets.decryptOptional(stored);
    return json ? parseStoredSink(json) : null;
  }

  /**
   * Creates the instance unless the customer already has its limit of instances (the customer's override, else
   * `defaultLimit`); then returns the limit instead. Creations of one customer are serialised on the customer's row,
   * so concurrent requests cannot all see room for one more.
   */
  async createWithinLimit(scope: CustomerScope, instance: NewInstance, defaultLimit: number): Promise<InstanceRecord | { limit: number }> {
    const { apiKey, ...fields } = instance;
    return this.prisma.$transaction(async (tx) => {
      const [customer] = await tx.$queryRaw<Array<{ max_instances: number | null }>>`
        SELECT max_instances FROM customers WHERE id = ${scope.customerId} FOR UPDATE`;
      const limit = customer?.max_instances ?? defaultLimit;
      if ((await tx.instance.count({ where: { customerId: scope.customerId } })) >= limit) return { limit };
      const row = await tx.instance.create({
        data: { ...fields, customerId: scope.customerId, apiKeyHash: apiKey.hash, apiKeyPrefix: apiKey.prefix },
      });
      return this.toRecord(row);
    });
  }

  async find(scope: CustomerScope, id: string): Promise<InstanceRecord | null> {
    const row = await this.prisma.instance.findFirst({ where: { id, customerId: scope.customerId } });
    return row ? this.toRecord(row) : null;
  }

  /**
   * One statement on the pool, the total from a window count: no transaction holding a pooled connection across
   * two round trips. Only a page past the end (no rows to carry the count) costs a second query. The statement is
   * named, so each pooled connection parses and plans it once (planning cost twice what running it does).
   */
  async list(scope: CustomerScope, skip: number, take: number, status?: InstanceStatus): Promise<VersionedPage<InstanceRecord>> {
    const { rows } = await this.prisma.pool.query<ListedInstanceRow>({
      name: 'list-instances',
      text: LIST_INSTANCES,
      values: [scope.customerId, status ?? null, skip, take],
    });
    let totalCount = rows.length > 0 ? Number(rows[0].total) : 0;
    if (rows.length === 0 && skip > 0) {
      const counted = await this.prisma.pool.query<{ total: string }>(COUNT_INSTANCES, [scope.customerId, status ?? null]);
      totalCount = Number(counted.rows[0].total);
    }
    return {
      items: rows.map((row) => ({
        id: row.id,
        customerId: scope.customerId,
        name: row.name,
        status: row.status,
        deviceId: row.device_id,
        shard: row.shard,
        sandbox: row.sandbox,
        hasApiKey: row.has_api_key,
        createdAt: new Date(Number(row.created_ms)),
        statusReason: row.status_reason,
        settings: {
          useCustomDefaults: row.use_custom_defaults,
          pullMode: row.pull_mode,
          webhookUrl: row.webhook_url,
          eventSigningSecret: this.secrets.decryptOptional(row.event_signing_secret_enc),
          historySync: row.history_sync,
          eventFilters: row.event_filters,
          proxyUrl: this.secrets.decryptOptional(row.proxy_url_enc),
          eventSink: this.sinkOf(row.event_sink_enc),
        },
      })),
      totalCount,
      version: rows.length > 0 ? rows[0].version : null,
    };
  }

  /**
   * The customer's instances version: equal to the one a page was read with exactly while no instance of the customer
   * has been created, changed or deleted since (event numbering aside). Null for an unknown customer.
   */
  listVersion(scope: CustomerScope): Promise<string | null> {
    return this.versionReads.add(scope.customerId);
  }

  private async readVersions(customerIds: string[]): Promise<(string | null)[]> {
    const { rows } = await this.prisma.pool.query<{ id: string; version: string }>({
      ...INSTANCES_VERSIONS,
      values: [[...new Set(customerIds)]],
    });
    const versions = new Map(rows.map((row) => [row.id, row.version]));
    return customerIds.map((id) => versions.get(id) ?? null);
  }

  /** Every instance of the customer with its recorded status (for the dashboard's live list). */
  async statuses(scope: CustomerScope): Promise<{ id: string; status: InstanceStatus; deviceId: string | null }[]> {
    return this.prisma.instance.findMany({
      where: { customerId: scope.customerId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true, status: true, deviceId: true },
    });
  }

  /** False when the instance does not exist for this customer. */
  async rename(scope: CustomerScope, id: string, name: string): Promise<boolean> {
    const { count } = await this.prisma.instance.updateMany({ where: { id, customerId: scope.customerId }, data: { name } });
    return count === 1;
  }

  /** Changes the settings and, when `name` is given, the name in the same statement. */
  async updateSettings(scope: CustomerScope, id: string, settings: Partial<InstanceSettings>, name?: string): Promise<boolean> {
    const { eventSigningSecret, proxyUrl, eventSink, ...plain } = settings;
    const data = {
      ...plain,
      ...(eventSigningSecret !== undefined ? { eventSigningSecret: this.secrets.encryptOptional(eventSigningSecret) } : {}),
      ...(proxyUrl !== undefined ? { proxyUrl: this.secrets.encryptOptional(proxyUrl) } : {}),
      ...(eventSink === undefined ? {} : { eventSink: eventSink === null ? null : this.secrets.encrypt(JSON.stringify(eventSink)) }),
      ...(name !== undefined ? { name } : {}),
    };
    const { count } = await this.prisma.instance.updateMany({ where: { id, customerId: scope.customerId }, data });
    return count === 1;
  }

  async sendInterval(scope: CustomerScope, id: string): Promise<number | undefined> {
    const row = await this.prisma.instance.findFirst({ where: { id, customerId: scope.customerId }, select: { sendIntervalMs: true } });
    return row?.sendIntervalMs;
  }

  async setSendInterval(scope: CustomerScope, id: string, sendIntervalMs: number): Promise<boolean> {
    const { count } = await this.prisma.instance.updateMany({ where: { id, customerId: scope.customerId }, data: { sendIntervalMs } });
    return count === 1;
  }

  /**
   * Stores a new instance key; returns the hash it replaced (null when there was none), or undefined when not found.
   * The row is locked before it is read, so of two concurrent rotations the second sees (and returns for revocation)
   * the key the first stored, not the one both started from: a key handed out and already cached is revoked too.
   */
  async replaceApiKey(scope: CustomerScope, id: string, key: { hash: string; prefix: string }): Promise<string | null | undefined> {
    return this.prisma.$transaction(async (tx) => {
      const [current] = await tx.$queryRaw<Array<{ api_key_hash: string | null }>>`
        SELECT api_key_hash FROM instances WHERE id = ${id} AND customer_id = ${scope.customerId} FOR UPDATE`;
      if (!current) return undefined;
      await tx.instance.update({ where: { id }, data: { apiKeyHash: key.hash, apiKeyPrefix: key.prefix } });
      return current.api_key_hash;
    });
  }

  /** Deletes the instance; returns its key hash (null when it had none), or undefined when not found. */
  async delete(scope: CustomerScope, id: string): Promise<string | null | undefined> {
    const rows = await this.prisma.instance.findMany({ where: { id, customerId: scope.customerId }, select: { apiKeyHash: true } });
    if (rows.length === 0) return undefined;
    const [, , , , , { count }] = await this.prisma.$transaction([
      this.prisma.messageCounter.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxMessage.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxGroup.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxContact.deleteMany({ where: { instanceId: id } }),
      this.prisma.sandboxDevice.deleteMany({ where: { instanceId: id } }),
      this.prisma.instance.deleteMany({ where: { id, customerId: scope.customerId } }),
    ]);
    return count === 1 ? rows[0].apiKeyHash : undefined;
  }
}
