export * from './driver';
export * from './messaging.module';
export * from './events/normalise';
export * from './sandbox/sandbox-network';
export * from './sandbox/sandbox-happenings';
export * from './sandbox/sandbox-session';
export * from './sandbox/sandbox.driver';
export * from './sandbox/codes';
