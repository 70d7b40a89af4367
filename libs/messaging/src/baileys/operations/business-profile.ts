import type { WABusinessProfile } from '@whiskeysockets/baileys';
import type { BusinessProfile } from '@app/contracts';

/** The network gives opening times as minutes after midnight; the gateway shows them as `HH:MM`. */
function clock(value: number | string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const minutes = Number(value);
  if (!Number.isInteger(minutes) || minutes < 0) return String(value);
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * A business profile as Baileys reads it. Baileys keeps only the first category's name and drops its id, and does not
 * read the location or the member-since date, so those fields are left out (the contract's categories need the id).
 */
export function businessProfileOf(jid: string, profile: WABusinessProfile): BusinessProfile {
  const hours = profile.business_hours?.business_config ?? profile.business_hours?.config ?? [];
  const website = profile.website?.find((url) => url !== '');
  const timeZone = profile.business_hours?.timezone;
  return {
    id: jid,
    ...(profile.description ? { description: profile.description } : {}),
    ...(profile.address ? { address: profile.address } : {}),
    ...(profile.email ? { email: profile.email } : {}),
    ...(website ? { website } : {}),
    ...(hours.length > 0
      ? {
          businessHours: hours.map((entry) => {
            const openTime = clock(entry.open_time);
            const closeTime = clock(entry.close_time);
            return {
              dayOfWeek: entry.day_of_week,
              mode: entry.mode,
              ...(openTime ? { openTime } : {}),
              ...(closeTime ? { closeTime } : {}),
            };
          }),
        }
      : {}),
    ...(timeZone ? { businessHoursTimeZone: timeZone } : {}),
  };
}
