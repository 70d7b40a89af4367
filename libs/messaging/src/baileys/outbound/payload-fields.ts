import { PermanentSendError } from '@app/contracts';

/** Typed reads of a stored send payload: JSON the API wrote, so a field of the wrong type counts as absent. */
export type Payload = Record<string, unknown>;

export function optionalText(payload: Payload, field: string): string | undefined {
  const value = payload[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function requiredText(payload: Payload, field: string): string {
  const value = payload[field];
  if (typeof value !== 'string') throw new PermanentSendError(`the send has no ${field}`);
  return value;
}

export function optionalNumber(payload: Payload, field: string): number | undefined {
  const value = payload[field];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function requiredNumber(payload: Payload, field: string): number {
  const value = optionalNumber(payload, field);
  if (value === undefined) throw new PermanentSendError(`the send has no ${field}`);
  return value;
}

export function flag(payload: Payload, field: string): boolean | undefined {
  const value = payload[field];
  return typeof value === 'boolean' ? value : undefined;
}

export function texts(payload: Payload, field: string): string[] | undefined {
  const value = payload[field];
  if (!Array.isArray(value)) return undefined;
  const items = value.filter((item): item is string => typeof item === 'string');
  return items.length > 0 ? items : undefined;
}

export function records(payload: Payload, field: string): Payload[] {
  const value = payload[field];
  return Array.isArray(value) ? value.filter((item): item is Payload => typeof item === 'object' && item !== null) : [];
}
