export * from './redis.module';
export * from './redis.service';
export * from './invalidation-bus';
export * from './command-client';
export * from './command-server';
export * from './webhook-queue';
export * from './key-invalidations';
