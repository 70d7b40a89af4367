import { Link } from 'react-router';
import type { LoggedMessage } from '../api/peer-types';
import { mediaLabel, messagePreview, vcardName } from './message-kinds';

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** One message of the history, incoming on the left and outgoing on the right, drawn by its kind. */
export function MessageBubble({ item }: { item: LoggedMessage }) {
  const { message } = item;
  const out = message.sender.isMe;
  const when = message.time || item.receivedAt;
  return (
    <li className={`history-message ${out ? 'out' : 'in'}`} aria-label={`${out ? 'Sent' : 'Received'} ${message.type} message`}>
      <div className="phone-bubble history-bubble">
        {message.replyTo && <div className="bubble-quote">{message.replyTo.text ?? `reply to ${message.replyTo.id}`}</div>}
        <BubbleBody item={item} />
        <div className="phone-meta">
          {message.isEdit && 'edited · '}
          <time dateTime={when} title={new Date(when).toISOString()}>
            {time(when)}
          </time>
          {message.type !== 'reaction' && (
            <>
              {' · '}
              <Link
                to={`../tester?react=${encodeURIComponent(message.id)}&to=${encodeURIComponent(message.chatId)}`}
                relative="path"
                aria-label={`React to message ${message.id}`}
              >
                React
              </Link>
            </>
          )}
        </div>
      </div>
    </li>
  );
}

function BubbleBody({ item }: { item: LoggedMessage }) {
  const { message } = item;
  switch (message.type) {
    case 'media': {
      const media = message.media;
      const caption = media?.caption ?? message.text;
      return (
        <>
          <div className="media-placeholder" role="img" aria-label={`${mediaLabel(media?.mediaType)} attachment`}>
            {mediaLabel(media?.mediaType)}
            {media?.filename && <span className="mono small"> {media.filename}</span>}
          </div>
          {caption && <div>{caption}</div>}
        </>
      );
    }
    case 'location': {
      const place = message.location;
      if (!place) return <div>Location</div>;
      return (
        <div className="location-card">
          <span className="kind-label">Location</span>
          {place.name && <strong>{place.name}</strong>}
          {place.address && <div className="small">{place.address}</div>}
          <div className="mono small">
            {place.latitude.toFixed(5)}, {place.longitude.toFixed(5)}
          </div>
        </div>
      );
    }
    case 'contact':
      return (
        <div className="contact-card">
          <span className="kind-label">Contact card</span>
          <strong>{vcardName(message.contact ?? '')}</strong>
        </div>
      );
    case 'contactArray':
      return (
        <ul className="contact-card">
          {(message.contactArray ?? []).map((vcard, index) => (
            <li key={index}>
              <span className="kind-label">Contact card</span> <strong>{vcardName(vcard)}</strong>
            </li>
          ))}
        </ul>
      );
    case 'reaction':
      return (
        <div className="reaction-line">
          <span className="reaction-emoji">{message.reaction?.emoji || '∅'}</span>{' '}
          <span className="small muted">
            {message.reaction?.emoji ? 'reacted to' : 'removed a reaction from'} <span className="mono">{message.reaction?.messageId}</span>
          </span>
        </div>
      );
    default:
      return <div>{message.type === 'text' ? message.text : messagePreview(message)}</div>;
  }
}
