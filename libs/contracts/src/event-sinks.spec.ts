import { brokerUrlProblem, maskBrokerUrl, parseStoredSink, renderSinkTemplate, sinkTarget, subjectProblem } from './event-sinks';

describe('event sink settings', () => {
  it('masks the broker password only, so the masked URL can be sent back', () => {
    expect(maskBrokerUrl('amqp://gateway:s3cret@broker.example.com:5672/events')).toBe('amqp://gateway:…@broker.example.com:5672/events');
    expect(maskBrokerUrl('nats://broker.example.com:4222')).toBe('nats://broker.example.com:4222');
    expect(brokerUrlProblem('rabbitmq', maskBrokerUrl('amqp://u:p@h/v'))).toBeNull();
  });

  it('takes each kind’s schemes only, with a host and no query', () => {
    expect(brokerUrlProblem('rabbitmq', 'amqps://h:5671/v')).toBeNull();
    expect(brokerUrlProblem('nats', 'tls://h:4222')).toBeNull();
    expect(brokerUrlProblem('nats', 'amqp://h')).toMatch(/^must be a URL starting with nats:\/\/ or tls:\/\//);
    expect(brokerUrlProblem('rabbitmq', 'amqp://h/v?heartbeat=5')).toBe('must not have a query or fragment');
    expect(brokerUrlProblem('nats', 'nats://h:4222/vhost')).toBe('must not have a path (NATS has no virtual hosts)');
  });

  it('renders routing keys and subjects per event, and refuses wildcards in subjects', () => {
    expect(renderSinkTemplate('gw.{instanceId}.{eventType}', { instanceId: 'ins_1', eventType: 'message' })).toBe('gw.ins_1.message');
    expect(subjectProblem('a.>')).not.toBeNull();
    expect(subjectProblem('a..b')).not.toBeNull();
    expect(subjectProblem('gateway.{instanceId}')).toBeNull();
  });

  it('names the target without credentials, and reads stored settings back', () => {
    const stored = parseStoredSink(
      JSON.stringify({ kind: 'rabbitmq', url: 'amqp://u:p@h:5672/ev%2Fents', exchange: 'x', routingKey: 'k' }),
    );
    expect(sinkTarget(stored)).toBe('amqp://h:5672 vhost ev/ents exchange x key k');
    expect(() => parseStoredSink('{"kind":"kafka"}')).toThrow(
      "stored event sink settings are not readable (kind: Invalid discriminator value. Expected 'rabbitmq' | 'nats')",
    );
    expect(() => parseStoredSink('{"kind":"nats","url":"nats://u:secret@h"}')).toThrow(
      'stored event sink settings are not readable (subject: Invalid input: expected string, received undefined)',
    );
  });
});
