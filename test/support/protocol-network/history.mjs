// History sync as the phone delivers it after the initial bootstrap: the HistorySync proto is deflated, encrypted as a
// media file of type `md-msg-hist`, uploaded to the media server, and announced to the companion by a
// HISTORY_SYNC_NOTIFICATION naming the blob by direct path only (no URL: rc14's downloadHistory then fetches it from
// the default media host, which the worker's test seam sends to this network's media server).
import { deflateSync } from 'node:zlib';
import * as baileys from '@whiskeysockets/baileys';
import { httpError } from './network.mjs';
import { encryptMedia } from './media-server.mjs';

const { proto } = baileys;

/** The phone sends `history` (a proto.HistorySync as JSON) to one of the account's companion devices as a blob. */
export async function sendHistoryBlob(network, media, device, { syncType, history, chunkOrder = 1, progress = 100 }) {
  const type = proto.HistorySync.HistorySyncType[syncType];
  if (type === undefined) throw httpError(400, `syncType must be one of ${Object.keys(proto.HistorySync.HistorySyncType).join(', ')}`);
  const plain = deflateSync(
    proto.HistorySync.encode(proto.HistorySync.fromObject({ ...history, syncType: type, chunkOrder, progress })).finish(),
  );
  const file = await encryptMedia(plain, 'md-msg-hist');
  const { directPath } = media.store(file.encrypted);
  const id = await network.sendFromPhone(device, {
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
      historySyncNotification: {
        syncType: type,
        directPath,
        mediaKey: file.mediaKey,
        fileSha256: file.fileSha256,
        fileEncSha256: file.fileEncSha256,
        fileLength: file.fileLength,
        chunkOrder,
        progress,
      },
    },
  });
  return { id, directPath };
}

export function historyRoutes(network, media) {
  return [
    [
      /^POST \/phone\/history$/,
      ({ body }) => {
        const device = network.deviceByJid(String(body.to));
        if (!device) throw httpError(404, `no device ${body.to}`);
        return sendHistoryBlob(network, media, device, body);
      },
    ],
  ];
}
