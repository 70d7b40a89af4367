import { z } from 'zod';
import { decodeShape, refused, WireDecodeError } from './wire/decode';

/**
 * Event sinks: message brokers that receive the same envelopes as the webhook, per instance (or the customer's default).
 * The settings are validated here once, for the API's edge and for the worker that reads them back from storage.
 * A new broker kind (SQS, Kafka) is one more entry in `EVENT_SINK_KINDS`, its settings type and its rules below, and
 * one adapter folder in the worker (apps/worker/src/sinks).
 */
export const EVENT_SINK_KINDS = ['rabbitmq', 'nats'] as const;
export type EventSinkKind = (typeof EVENT_SINK_KINDS)[number];

/** AMQP 0-9-1: published to `exchange` (it must exist) with `routingKey`, persistent, with publisher confirms. */
export interface RabbitMqSinkSettings {
  kind: 'rabbitmq';
  /** `amqp://user:password@host:5672/vhost` or `amqps://…`. */
  url: string;
  exchange: string;
  /** A template: `{instanceId}` and `{eventType}` are replaced per event. */
  routingKey: string;
}

/** NATS JetStream: published to `subject` (a stream must cover it) with `Nats-Msg-Id` = event id. */
export interface NatsSinkSettings {
  kind: 'nats';
  /** `nats://user:password@host:4222` or `tls://…`. */
  url: string;
  /** A template like `routingKey`. */
  subject: string;
}

export type EventSinkSettings = RabbitMqSinkSettings | NatsSinkSettings;

export const DEFAULT_RABBITMQ_EXCHANGE = 'amq.topic';
export const DEFAULT_ROUTING_KEY = '{instanceId}.{eventType}';
export const DEFAULT_NATS_SUBJECT = 'gateway.events.{instanceId}.{eventType}';

const URL_SCHEMES: Record<EventSinkKind, string[]> = { rabbitmq: ['amqp:', 'amqps:'], nats: ['nats:', 'tls:'] };
const MAX_URL_LENGTH = 2048;
const MAX_NAME_LENGTH = 255;
const PLACEHOLDERS = ['{instanceId}', '{eventType}'];
/** An exchange name as RabbitMQ allows it: letters, digits, hyphen, underscore, period, colon; empty is the default exchange. */
const EXCHANGE_NAME = /^[A-Za-z0-9_.:-]*$/;
/** Subject tokens: no wildcards, no whitespace; placeholders become instance ids and event types, which are valid tokens. */
const SUBJECT_TOKEN = /^[A-Za-z0-9_:{}$-]+$/;
/** The character that marks a masked secret (as in `maskSecret`). */
const MASK_MARK = '…';

/** What is wrong with a broker URL for this kind, or null. A masked URL read back (`…` as password) passes. */
export function brokerUrlProblem(kind: EventSinkKind, value: string): string | null {
  const schemes = URL_SCHEMES[kind];
  const rule = `must be a URL starting with ${schemes.map((scheme) => `${scheme}//`).join(' or ')}, with a host (at most ${MAX_URL_LENGTH} characters)`;
  if (value.length === 0 || value.length > MAX_URL_LENGTH) return rule;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return rule;
  }
  if (!schemes.includes(url.protocol) || url.hostname === '') return rule;
  if (url.search || url.hash) return 'must not have a query or fragment';
  if (kind === 'nats' && url.pathname !== '' && url.pathname !== '/') return 'must not have a path (NATS has no virtual hosts)';
  return null;
}

export function exchangeProblem(value: string): string | null {
  if (value.length > MAX_NAME_LENGTH || !EXCHANGE_NAME.test(value)) {
    return `must be at most ${MAX_NAME_LENGTH} letters, digits, '-', '_', '.' or ':' (empty for the default exchange)`;
  }
  if (value.startsWith('amq.') && value !== 'amq.topic' && value !== 'amq.direct' && value !== 'amq.fanout' && value !== 'amq.headers') {
    return 'must not be a reserved amq.* name other than amq.topic, amq.direct, amq.fanout or amq.headers';
  }
  return null;
}

export function routingKeyProblem(value: string): string | null {
  if (value.length === 0 || value.length > MAX_NAME_LENGTH - 60 || /\s/.test(value)) {
    return `must be 1-${MAX_NAME_LENGTH - 60} characters without spaces ({instanceId} and {eventType} are filled in)`;
  }
  return placeholderProblem(value);
}

export function subjectProblem(value: string): string | null {
  const rule = `must be 1-${MAX_NAME_LENGTH - 60} characters of dot-separated tokens without spaces or wildcards ({instanceId} and {eventType} are filled in)`;
  if (value.length === 0 || value.length > MAX_NAME_LENGTH - 60) return rule;
  if (!value.split('.').every((token) => SUBJECT_TOKEN.test(token))) return rule;
  return placeholderProblem(value);
}

function placeholderProblem(value: string): string | null {
  const unknown = (value.match(/\{[^}]*\}?/g) ?? []).filter((part) => !PLACEHOLDERS.includes(part));
  return unknown.length > 0 ? `has an unknown placeholder ${unknown[0]} (only {instanceId} and {eventType})` : null;
}

/** The routing key or subject for one event. */
export function renderSinkTemplate(template: string, event: { instanceId: string; eventType: string }): string {
  return template.replaceAll('{instanceId}', event.instanceId).replaceAll('{eventType}', event.eventType);
}

/** The settings without credentials, for logs and the attempt log: the broker's host, and where on it. */
export function sinkTarget(settings: EventSinkSettings): string {
  const url = new URL(settings.url);
  const vhost = settings.kind === 'rabbitmq' ? decodeURIComponent(url.pathname.slice(1) || '/') : '';
  const where =
    settings.kind === 'rabbitmq'
      ? ` vhost ${vhost} exchange ${settings.exchange || '(default)'} key ${settings.routingKey}`
      : ` subject ${settings.subject}`;
  return `${url.protocol}//${url.host}${where}`;
}

/** The URL with its password replaced by `…`, as the API shows it; unchanged when it has none. */
export function maskBrokerUrl(value: string): string {
  const url = new URL(value);
  if (url.password === '') return value;
  url.password = MASK_MARK;
  // `URL` percent-encodes the mark; the API shows it as typed, so the value read back can be sent back unchanged.
  return url.toString().replace(encodeURIComponent(MASK_MARK), MASK_MARK);
}

export function isMaskedBrokerUrl(value: string): boolean {
  return value.includes(MASK_MARK);
}

/** Stored settings as the API writes them (encrypted JSON); a field is only ever added, optional. */
const storedSinkSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rabbitmq'), url: z.string(), exchange: z.string(), routingKey: z.string() }),
  z.object({ kind: z.literal('nats'), url: z.string(), subject: z.string() }),
]) satisfies z.ZodType<EventSinkSettings>;

/** Parses stored (decrypted) settings; throws, naming the field (never its value), on anything the API would not have accepted. */
export function parseStoredSink(json: string): EventSinkSettings {
  try {
    let value: unknown;
    try {
      value = JSON.parse(json);
    } catch {
      throw refused('sink_settings', 'not JSON');
    }
    return decodeShape('sink_settings', storedSinkSchema, value);
  } catch (error) {
    if (!(error instanceof WireDecodeError)) throw error;
    throw new Error(`stored event sink settings are not readable (${error.reason})`, { cause: error });
  }
}
