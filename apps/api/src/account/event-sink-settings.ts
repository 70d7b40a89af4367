import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AppError,
  DEFAULT_NATS_SUBJECT,
  DEFAULT_RABBITMQ_EXCHANGE,
  DEFAULT_ROUTING_KEY,
  isMaskedBrokerUrl,
  maskBrokerUrl,
  type EventSinkSettings,
} from '@app/contracts';
import { brokerHostProblem, outboundPolicy, type OutboundPolicy } from '@app/security';
import type { EventSinkDto, EventSinkSettingsDto } from './dto/event-sink.dto';

/** The sink as the API shows it: everything but the broker password. */
export function toEventSinkView(sink: EventSinkSettings | null): EventSinkSettingsDto | null {
  return sink ? { ...sink, url: maskBrokerUrl(sink.url) } : null;
}

/** Broker sinks in settings: defaults filled in, a masked URL sent back keeps the stored one, the host checked like a webhook's. */
@Injectable()
export class EventSinkSettingsWriter {
  private readonly policy: OutboundPolicy;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.policy = outboundPolicy(config);
  }

  /** What to store for `field`: undefined keeps the stored sink, null removes it. 400 for a URL that may not be used. */
  async toStored(
    field: string,
    input: EventSinkDto | null | undefined,
    stored: EventSinkSettings | null,
  ): Promise<EventSinkSettings | null | undefined> {
    if (input === undefined || input === null) return input;
    let url = input.url;
    if (isMaskedBrokerUrl(url)) {
      if (!stored || stored.kind !== input.kind || maskBrokerUrl(stored.url) !== url) {
        throw AppError.validation(
          `${field}.url is a masked value that does not match the current URL; send the full URL, or the value read back unchanged to keep it`,
        );
      }
      url = stored.url;
    }
    // A name that does not resolve from here may resolve where it matters; every connection checks the address again.
    const problem = await brokerHostProblem(this.policy, url, { allowUnresolved: true });
    if (problem) throw AppError.validation(`${field}.url ${problem}`);
    if (input.kind === 'rabbitmq') {
      return {
        kind: 'rabbitmq',
        url,
        exchange: input.exchange ?? DEFAULT_RABBITMQ_EXCHANGE,
        routingKey: input.routingKey ?? DEFAULT_ROUTING_KEY,
      };
    }
    return { kind: 'nats', url, subject: input.subject ?? DEFAULT_NATS_SUBJECT };
  }
}
