/** Up to two letters of a name (or the last two digits of a number). */
export function initialsOf(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) return '?';
  if (/^\+?\d[\d\s-]*$/.test(trimmed)) return trimmed.replace(/\D/g, '').slice(-2);
  return trimmed
    .split(/\s+/)
    .slice(0, 2)
    .map((word) => [...word][0]?.toUpperCase() ?? '')
    .join('');
}

/**
 * A round badge with the initials of `name`. The console's content security policy loads images only from the
 * gateway itself, and profile pictures live on the network's CDN, so a picture is offered as a link to open instead
 * of being drawn here.
 */
export function Avatar({ name, pictureUrl, size = 40 }: { name: string; pictureUrl?: string; size?: number }) {
  const style = { width: size, height: size, fontSize: size * 0.4 };
  const badge = (
    <span className="avatar avatar-initials" style={style} aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
  if (!pictureUrl) return badge;
  return (
    <a className="avatar-link" href={pictureUrl} target="_blank" rel="noreferrer" aria-label={`Open the profile picture of ${name}`}>
      {badge}
    </a>
  );
}
