export * from './decode';
export * from './operations';
export * from './commands';
export * from './jobs';
export * from './sends';
export * from './redis-values';
export * from './stores';
