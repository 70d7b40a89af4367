import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { AppError, type CustomerScope } from '@app/contracts';
import { InstanceRepository, WebhookDeliveryRepository } from '@app/database';
import { OutboundHttp, OutboundHttpError, outboundPolicy, parseProxyUrl, webhookSignatureHeaders } from '@app/security';
import type { WebhookTestResultDto } from './dto/webhook-test.dto';

const TIMEOUT_MS = 10_000;
const SNIPPET_BYTES = 1024;
const SNIPPET_CHARS = 300;

/**
 * "Send test event": one signed `test` event POSTed now to the instance's effective webhook URL, through the same
 * SSRF-safe agent and with the same headers and signatures as real deliveries. Nothing is stored or retried.
 */
@Injectable()
export class WebhookTestService {
  private readonly http: OutboundHttp;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly instances: InstanceRepository,
    private readonly deliveries: WebhookDeliveryRepository,
  ) {
    this.http = new OutboundHttp(outboundPolicy(config), config.webhookEgressProxy ? parseProxyUrl(config.webhookEgressProxy) : undefined);
  }

  async send(scope: CustomerScope, instanceId: string): Promise<WebhookTestResultDto> {
    if (!(await this.instances.find(scope, instanceId))) throw new AppError('not_found');
    const routing = await this.deliveries.routing(instanceId);
    const url = routing?.configuredUrl;
    if (!routing || !url) throw AppError.validation('the instance has no webhook URL (its own, or the customer default it follows)');
    const now = new Date();
    const eventId = `evt_${now.getTime()}_${randomBytes(8).toString('hex')}`;
    const body = JSON.stringify({
      eventId,
      instanceId,
      eventType: 'test',
      receivedAt: now.toISOString(),
      eventData: { message: 'Test event sent from the dashboard. Real events look the same, with their own eventType and eventData.' },
    });
    const timestamp = Math.floor(now.getTime() / 1000);
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      'User-Agent': 'messaging-gateway-webhooks',
      'X-Instance-Id': instanceId,
      'webhook-id': eventId,
      'webhook-timestamp': String(timestamp),
      ...(routing.signingSecret ? webhookSignatureHeaders(routing.signingSecret, eventId, timestamp, body) : {}),
    };
    const started = Date.now();
    try {
      const response = await this.http.post(url, body, headers, { timeoutMs: TIMEOUT_MS, maxResponseBytes: SNIPPET_BYTES });
      const snippet = response.body.toString('utf8').slice(0, SNIPPET_CHARS);
      const delivered = response.statusCode >= 200 && response.statusCode < 300;
      return {
        url,
        delivered,
        statusCode: response.statusCode,
        durationMs: Date.now() - started,
        ...(snippet ? { responseSnippet: snippet } : {}),
        ...(delivered ? {} : { error: `receiver answered ${response.statusCode}` }),
      };
    } catch (failure) {
      const error = failure instanceof OutboundHttpError ? failure.message : `request failed: ${(failure as Error).message}`;
      return { url, delivered: false, durationMs: Date.now() - started, error };
    }
  }
}
