// Nest injection tokens of the Baileys driver. The three ports are implemented outside this folder (inbound mapping,
// outbound sends, operations); baileys-ports.ts binds each token to its implementation.

/** A `BaileysInboundPort`: turns socket event batches into gateway events and store facts. */
export const BAILEYS_INBOUND = Symbol('BAILEYS_INBOUND');
/** A `BaileysSenderPort`: hands one outbound message or message operation to the network. */
export const BAILEYS_SENDER = Symbol('BAILEYS_SENDER');
/** A `BaileysOperationsPort`: carries out one network operation (chats, groups, contacts, profile, ...). */
export const BAILEYS_OPERATIONS = Symbol('BAILEYS_OPERATIONS');
/** A `BaileysLibraryLoader`: `loadBaileys` in production, a fake library in unit tests. */
export const BAILEYS_LIBRARY = Symbol('BAILEYS_LIBRARY');
/** The driver's `BaileysSettings`. */
export const BAILEYS_SETTINGS = Symbol('BAILEYS_SETTINGS');
/** The pino logger (Baileys' `ILogger`) that every socket logs through, one child per instance. */
export const BAILEYS_LOGGER = Symbol('BAILEYS_LOGGER');
