import type { CallOperations } from './calls';
import type { ChatOperations } from './chats';
import type { GroupOperations } from './groups';
import type { MediaOperations } from './media';
import type { UserOperations } from './users';
import type { CommunityOperations } from './communities';
import type { ContactOperations } from './contacts';
import type { NewsletterOperations } from './newsletters';
import type { StatusOperations } from './status';

export * from './common';
export * from './calls';
export * from './chats';
export * from './groups';
export * from './media';
export * from './users';
export * from './communities';
export * from './contacts';
export * from './newsletters';
export * from './status';

/**
 * Every operation a network driver carries out on request (besides sends, which go through the queues). One name →
 * one argument type → one result type, checked by the compiler from the API through the worker to each driver.
 */
export type NetworkOperations = ChatOperations &
  ContactOperations &
  GroupOperations &
  CommunityOperations &
  UserOperations &
  CallOperations &
  MediaOperations &
  NewsletterOperations &
  StatusOperations;

export type OperationName = keyof NetworkOperations;
export type OperationArgs<N extends OperationName> = NetworkOperations[N]['args'];
export type OperationResult<N extends OperationName> = NetworkOperations[N]['result'];
