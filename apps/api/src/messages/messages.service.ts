import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError, newMessageId, type InstanceScope, type Send } from '@app/contracts';
import { IdempotencyMismatch, MessageRepository } from '@app/database';
import { SendDoorbells } from '@app/redis';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Key order must not change the hash: `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A send built from its validated request, with that request as the client sent it (for idempotency comparisons). */
export type SendRequest = Send & { body: object };

/**
 * Durable accept: the message row is committed before the answer, then the owning worker is notified.
 * With an Idempotency-Key the same request returns the same id and is sent once.
 */
@Injectable()
export class MessagesService {
  constructor(
    private readonly messages: MessageRepository,
    private readonly doorbells: SendDoorbells,
  ) {}

  async accept(scope: InstanceScope, request: SendRequest, idempotencyKey?: string): Promise<{ id: string }> {
    const { id } = await this.acceptDetailed(scope, request, idempotencyKey);
    return { id };
  }

  /** As `accept`, also telling whether an earlier request with the same key had already created the message. */
  async acceptDetailed(scope: InstanceScope, request: SendRequest, idempotencyKey?: string): Promise<{ id: string; replayed: boolean }> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw AppError.validation('Idempotency-Key must be 1-255 visible ASCII characters');
    }
    const requestHash = idempotencyKey
      ? createHash('sha256')
          .update(canonical({ kind: request.kind, body: request.body }))
          .digest('hex')
      : undefined;
    let accepted;
    try {
      const { body: _body, ...send } = request;
      accepted = await this.messages.accept(scope.instanceId, { ...send, id: newMessageId(), idempotencyKey, requestHash });
    } catch (error) {
      if (error instanceof IdempotencyMismatch) throw new AppError('idempotency_mismatch');
      throw error;
    }
    if (!accepted.replayed) await this.doorbells.ring({ instanceId: scope.instanceId, messageId: accepted.id });
    return accepted;
  }
}
