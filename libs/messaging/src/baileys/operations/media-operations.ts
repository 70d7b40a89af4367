import type { WAMessage } from '@whiskeysockets/baileys';
import { Injectable, Logger } from '@nestjs/common';
import { AppError, type MediaOperations } from '@app/contracts';
import type { BaileysLibrary } from '../baileys-library';
import { bufferJson } from '../buffer-json';
import type { BaileysOperationHandlers } from './operation-handlers';

const DEFAULT_MIME = 'application/octet-stream';

/**
 * How long the sender's phone gets to upload an expired file again. Baileys' `updateMediaMessage` waits for the
 * phone's answer without a limit, and a phone that is offline never answers.
 */
export const REUPLOAD_TIMEOUT_MS = 30_000;

/** Baileys' logger interface (not exported from its package root). */
type ILogger = NonNullable<Parameters<BaileysLibrary['downloadMediaMessage']>[3]>['logger'];

/** Baileys logs one line when it asks the sender's phone to upload an expired file again. */
function reuploadLogger(logger: Logger): ILogger {
  const log = (obj: unknown, msg?: string) => logger.log(msg ?? obj);
  const self: ILogger = { level: 'info', child: () => self, trace: () => {}, debug: () => {}, info: log, warn: log, error: log };
  return self;
}

/**
 * Received files. The network keeps only the encrypted file and the message carries its key, so `media.id` of a
 * real-network `message` event is the id of that message and the file is fetched from the stored WAMessage.
 */
@Injectable()
export class BaileysMediaOperations {
  private readonly logger = reuploadLogger(new Logger('BaileysMedia'));

  readonly handlers: BaileysOperationHandlers<MediaOperations> = {
    'media.download': async ({ instanceId, lib, socket, messages }, { mediaId }) => {
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
      // An expired file (404/410 from the media server) is re-requested from the sender's phone once.
      const bytes = await lib.downloadMediaMessage(
        message,
        'buffer',
        {},
        { logger: this.logger, reuploadRequest: (expired) => withinReuploadTime(socket.updateMediaMessage(expired)) },
      );
      const filename = 'fileName' in content ? content.fileName : undefined;
      return {
        mimeType: content.mimetype ?? DEFAULT_MIME,
        data: bytes.toString('base64'),
        ...(filename ? { filename } : {}),
      };
    },
  };
}

/** The phone's re-upload, or not_found once it took too long: a file nobody can supply is as gone as a deleted one. */
function withinReuploadTime<T>(reupload: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new AppError('not_found')), REUPLOAD_TIMEOUT_MS);
  });
  return Promise.race([reupload, expired]).finally(() => clearTimeout(timer));
}
