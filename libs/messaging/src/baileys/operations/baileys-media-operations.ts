import type { WAMessage } from '@whiskeysockets/baileys';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, type MediaOperations } from '@app/contracts';
import type { Dispatcher } from 'undici';
import type { BaileysLibrary, BaileysSocket } from '../baileys-library';
import { bufferJson } from '../buffer-json';
import type { BaileysOperationHandlers } from './operation-handlers';

const DEFAULT_MIME = 'application/octet-stream';
/** What the media server answers for a file it no longer keeps (rc14's REUPLOAD_REQUIRED_STATUS). */
const EXPIRED_STATUSES = [404, 410];

/**
 * How long the sender's phone gets to upload an expired file again. Baileys' `updateMediaMessage` waits for the
 * phone's answer without a limit, and a phone that is offline never answers.
 */
export const REUPLOAD_TIMEOUT_MS = 30_000;

/**
 * Received files. The network keeps only the encrypted file and the message carries its key, so `media.id` of a
 * real-network `message` event is the id of that message and the file is fetched from the stored WAMessage.
 */
@Injectable()
export class BaileysMediaOperations {
  private readonly logger = new Logger('BaileysMedia');

  readonly handlers: BaileysOperationHandlers<MediaOperations> = {
    'media.download': async ({ instanceId, lib, socket, messages, mediaDispatcher }, { mediaId }) => {
      const record = await messages.find(instanceId, mediaId);
      if (!record) throw new AppError('not_found');
      // Revived as the protobuf object Baileys made: the store's JSON has the bytes as base64 strings, and the
      // re-upload request derives its key from `mediaKey`, which must be those bytes, not their text.
      const message = lib.proto.WebMessageInfo.fromObject(bufferJson.parse(record.data)) as WAMessage;
      let content: ReturnType<typeof lib.assertMediaContent>;
      try {
        content = lib.assertMediaContent(message.message);
      } catch {
        // A message without a file has nothing to download: as unknown as a message never received.
        throw new AppError('not_found');
      }
      const bytes = await downloadAskingForExpired(lib, socket, message, this.logger, mediaDispatcher);
      const filename = 'fileName' in content ? content.fileName : undefined;
      return {
        mimeType: content.mimetype ?? DEFAULT_MIME,
        data: bytes.toString('base64'),
        ...(filename ? { filename } : {}),
      };
    },
  };
}

/**
 * The file, and when the media server no longer has it (404/410) the file the sender's phone uploads again. rc14's
 * `downloadMediaMessage` would ask the phone itself, but it reads the HTTP status from `error.status`, which its own
 * Boom errors do not have (`output.statusCode`), so it never asks: the request is made here, once.
 */
async function downloadAskingForExpired(
  lib: BaileysLibrary,
  socket: BaileysSocket,
  message: WAMessage,
  logger: Logger,
  dispatcher: Dispatcher | undefined,
): Promise<Buffer> {
  // The instance's proxy, when it has one: a download is traffic to the network like any other.
  const options = dispatcher ? { options: { dispatcher } } : {};
  try {
    return await lib.downloadMediaMessage(message, 'buffer', options);
  } catch (error) {
    if (!EXPIRED_STATUSES.includes((error as { output?: { statusCode?: number } }).output?.statusCode ?? 0)) throw error;
  }
  logger.log(`asking the sender to upload the expired file of ${message.key.id} again`);
  // The new file's URL is built on the media host the network named in media_conn, as WhatsApp Web downloads from
  // those hosts; a socket that has not uploaded anything yet has not asked for them and would use a built-in default.
  await socket.refreshMediaConn(false);
  const reuploaded = await withinReuploadTime(socket.updateMediaMessage(message));
  return lib.downloadMediaMessage(reuploaded, 'buffer', options);
}

/** The phone's re-upload, or not_found once it took too long: a file nobody can supply is as gone as a deleted one. */
function withinReuploadTime<T>(reupload: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new AppError('not_found')), REUPLOAD_TIMEOUT_MS);
  });
  return Promise.race([reupload, expired]).finally(() => clearTimeout(timer));
}
