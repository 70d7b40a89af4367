import { useState } from 'react';

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
 * A round badge with the initials of `name`, and the profile picture drawn over it when there is one. Pictures live
 * on WhatsApp's picture host (the console's content security policy allows that one host for images); when it cannot
 * be reached the picture is dropped and the initials stay.
 */
export function Avatar({ name, pictureUrl, size = 40 }: { name: string; pictureUrl?: string; size?: number }) {
  const [pictureFailed, setPictureFailed] = useState(false);
  const style = { width: size, height: size, fontSize: size * 0.4 };
  const showPicture = pictureUrl !== undefined && isPictureHost(pictureUrl) && !pictureFailed;
  return (
    <span className="avatar avatar-initials" style={style} aria-hidden="true">
      {initialsOf(name)}
      {showPicture && (
        <img className="avatar-picture" src={pictureUrl} alt="" referrerPolicy="no-referrer" onError={() => setPictureFailed(true)} />
      )}
    </span>
  );
}

/** The one image host the console's policy allows besides itself (apps/api/src/dashboard/dashboard-static.ts). */
export const PROFILE_PICTURE_ORIGIN = 'https://pps.whatsapp.net';

function isPictureHost(url: string): boolean {
  return url.startsWith(`${PROFILE_PICTURE_ORIGIN}/`);
}
