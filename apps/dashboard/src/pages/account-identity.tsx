import { usePictureQuery, useOwnProfileQuery } from '../api/peer-queries';
import type { InstanceDetailDto as Instance } from '@messaging-gateway/client';
import { Avatar } from '../components/avatar';

/** "+<number>" as people write international numbers. */
export const displayNumber = (phone: string) => `+${phone}`;

/**
 * Who the instance is on the network: picture, push name and number of the paired account. Asked of the instance
 * only while it is connected; before that the card says it is not paired.
 */
export function AccountIdentity({ instance }: { instance: Instance }) {
  const connected = instance.status === 'connected';
  const profile = useOwnProfileQuery(instance.id, connected);
  const picture = usePictureQuery(instance.id, profile.data?.id ?? '', profile.data?.pictureId);
  if (!connected) {
    return (
      <div className="identity">
        <Avatar name={instance.name} size={40} />
        <span className="muted small">{instance.deviceId ? 'Not connected right now' : 'No phone paired yet'}</span>
      </div>
    );
  }
  if (profile.isPending) return <div className="identity muted small">Loading the account…</div>;
  if (profile.error) return <div className="identity muted small">Account details unavailable</div>;
  const { phone, pushName } = profile.data;
  const label = pushName ?? displayNumber(phone);
  return (
    <div className="identity" aria-label={`Account of ${instance.name}`}>
      <Avatar name={label} pictureUrl={picture.data?.pictureUrl} size={40} />
      <div className="identity-text">
        <span className="identity-name">{pushName ?? <span className="muted">No push name set</span>}</span>
        <span className="mono small">{displayNumber(phone)}</span>
      </div>
    </div>
  );
}
