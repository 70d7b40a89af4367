export * from './logging';
export * from './metrics';
export * from './health';
export * from './observability.module';
export * from './observe-requests';
export * from './shutdown-deadline';
export * from './cached-reading';
