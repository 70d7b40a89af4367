export * from './baileys-sender';
