// Media over the fake network: the `media_conn` iq, files contacts send (encrypted, uploaded, then announced in an
// image/document/audio message), what a contact downloads of a file our device sent, and re-uploads of expired files.
import { createHash } from 'node:crypto';
import * as baileys from '@whiskeysockets/baileys';
import { httpError } from './network.mjs';
import { decryptMedia, encryptMedia } from './media-server.mjs';

const { getBinaryNodeChild } = baileys;
const sha = (data) => createHash('sha256').update(data).digest('base64');

/** The message field that carries a file of each media type, and the key-derivation type Baileys uses for it. */
const CONTENT = {
  imageMessage: 'image',
  documentMessage: 'document',
  audioMessage: 'audio',
  videoMessage: 'video',
  stickerMessage: 'sticker',
};

/** The protocol handlers of media: answers `media_conn` and re-upload requests. */
export function mediaHandlers(media) {
  return {
    iq: (connection, node) => {
      if (node.attrs.xmlns !== 'w:m' || !getBinaryNodeChild(node, 'media_conn')) return false;
      connection.result(node, [media.mediaConn()]);
      return true;
    },
    receipt: (connection, node) => node.attrs.type === 'server-error' && media.reupload(connection, node),
  };
}

function contactOf(network, phone) {
  const contact = network.contacts.get(String(phone));
  if (!contact) throw httpError(404, `no contact ${phone}`);
  return contact;
}

/** The file of a message a contact decrypted: fetched by its direct path, checked against its hashes, decrypted. */
async function receivedFile(media, entry) {
  const [field, content] = Object.entries(entry.message ?? {}).find(([key]) => key in CONTENT) ?? [];
  if (!content) throw httpError(404, `message ${entry.id} carries no file`);
  const stored = media.fileAt(content.directPath);
  if (!stored) throw httpError(404, `the media server has no file at ${content.directPath}`);
  const mediaKey = Buffer.from(content.mediaKey, 'base64');
  const plain = await decryptMedia(stored.encrypted, CONTENT[field], mediaKey);
  return {
    field,
    urlHost: new URL(content.url).host,
    encryptedMatches: sha(stored.encrypted) === content.fileEncSha256,
    plainMatches: sha(plain) === content.fileSha256,
    data: plain.toString('base64'),
  };
}

/** Control routes of media: a contact sends a file, a contact's downloads, expiring a file, re-upload requests seen. */
export function mediaRoutes(network, media) {
  return [
    [
      /^POST \/contacts\/send-media$/,
      async ({ body }) => {
        const contact = contactOf(network, body.from);
        const device = network.deviceByJid(body.to);
        if (!device) throw httpError(404, `no device ${body.to}`);
        const field = `${body.mediaType}Message`;
        if (!(field in CONTENT)) throw httpError(400, `mediaType must be one of ${Object.values(CONTENT).join(', ')}`);
        const plain = Buffer.from(body.data, 'base64');
        const file = await encryptMedia(plain, body.mediaType);
        const { directPath, url } = media.store(file.encrypted);
        const message = {
          [field]: {
            url,
            directPath,
            mimetype: body.mimetype,
            mediaKey: file.mediaKey.toString('base64'),
            fileSha256: file.fileSha256.toString('base64'),
            fileEncSha256: file.fileEncSha256.toString('base64'),
            fileLength: file.fileLength,
            mediaKeyTimestamp: Math.floor(Date.now() / 1000),
            ...(body.caption ? { caption: body.caption } : {}),
            ...(body.fileName ? { fileName: body.fileName } : {}),
            ...(body.width ? { width: body.width, height: body.height } : {}),
          },
        };
        const sent = await network.sendFromContact(contact, device, { message, type: 'media', mediatype: body.mediaType });
        media.sent.set(sent.id, { ...file, directPath });
        return { ...sent, directPath };
      },
    ],
    [
      /^POST \/media\/expire$/,
      ({ body }) => {
        const sent = media.sent.get(String(body.id));
        if (!sent) throw httpError(404, `no file sent in message ${body.id}`);
        media.fileAt(sent.directPath).expired = true;
        return { ok: true };
      },
    ],
    [
      /^GET \/media\/received$/,
      ({ query }) => {
        const entry = contactOf(network, query.get('phone')).inbox.find((item) => item.id === query.get('id'));
        if (!entry) throw httpError(404, `contact ${query.get('phone')} received no message ${query.get('id')}`);
        return receivedFile(media, entry);
      },
    ],
    [/^GET \/media\/retries$/, () => media.retries ?? []],
    [/^GET \/media\/uploads$/, () => media.uploads],
    [/^GET \/media\/downloads$/, () => media.downloads],
  ];
}
