export * from './input-rules';
export { Follows, NormalisedBy } from './rule.decorators';
export { IsSigningSecret, IsWebhookUrl, REQUIRED } from './webhook.validators';
