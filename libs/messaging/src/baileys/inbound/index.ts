export * from './baileys-inbound';
export * from './recent-ids';
