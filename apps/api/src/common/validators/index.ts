export * from './input-rules';
export { Follows, NormalisedBy, refusal } from './rule.decorators';
export { IsSigningSecret, IsWebhookUrl, REQUIRED } from './webhook.validators';
export { IsProxyUrl } from './proxy.validators';
