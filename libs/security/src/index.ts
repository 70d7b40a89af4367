export * from './api-keys';
export * from './secret-box';
export * from './compare';
export * from './ids';
export * from './outbound-http';
export * from './broker-hosts';
export * from './webhook-signature';
export * from './secret-mask';
