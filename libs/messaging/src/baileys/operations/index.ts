export { BAILEYS_OPERATION_PROVIDERS, BaileysOperations } from './baileys-operations';
export type { BaileysOperationHandlers } from './operation-handlers';
