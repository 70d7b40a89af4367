import { AppError, type ChatPicture } from '@app/contracts';
import type { BaileysContext } from '../baileys-context';
import { UNSEEN, refused } from './network-errors';

/**
 * The id of the picture behind a URL. Baileys answers only the URL (the network's own picture id stays inside
 * `profilePictureUrl`), so the id is the URL's file name: it is the same for every link to one picture and changes
 * when the picture does, which is what callers compare it for.
 */
function pictureIdFromUrl(url: string): string {
  const path = new URL(url).pathname;
  const file = path.slice(path.lastIndexOf('/') + 1);
  return file.replace(/\.[a-z0-9]+$/i, '') || path;
}

/** The full-size picture of a user, group or community; not_found when there is none or it is hidden from us. */
export async function pictureOf(context: BaileysContext, jid: string): Promise<ChatPicture> {
  const url = await refused(context.socket.profilePictureUrl(jid, 'image'), UNSEEN);
  if (!url) throw new AppError('not_found');
  return { pictureId: pictureIdFromUrl(url), pictureUrl: url };
}

/** The picture when there is one to see; profiles without (or hiding) a picture simply show none. */
export async function optionalPicture(context: BaileysContext, jid: string): Promise<ChatPicture | undefined> {
  try {
    return await pictureOf(context, jid);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return undefined;
    throw error;
  }
}
