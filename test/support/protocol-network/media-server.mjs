// The network's media server: HTTPS on 127.0.0.1 (Baileys builds `https://<host>/...` URLs from the `media_conn`
// answer) with a self-signed certificate made at start with the openssl CLI; the worker trusts it through
// NODE_EXTRA_CA_CERTS. It keeps the encrypted files devices upload and serves them back, and plays the sender's phone
// when a device asks for an expired file again (the `server-error` receipt, answered by a `mediaretry` notification).
import { devicePeerAllowed } from './peer-guard.mjs';
import { execFileSync } from 'node:child_process';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as baileys from '@whiskeysockets/baileys';

const { getMediaKeys, hmacSign, hkdf, aesEncryptGCM, aesDecryptGCM, proto, getBinaryNodeChild, jidNormalizedUser } = baileys;

const MAC_BYTES = 10;
const sha256 = (data) => createHash('sha256').update(data).digest();
const base64Url = (data) => Buffer.from(data).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** A self-signed certificate for 127.0.0.1 and localhost, valid for a day, in a fresh temporary directory. */
function selfSignedCertificate() {
  const directory = mkdtempSync(join(tmpdir(), 'fake-media-'));
  const keyPath = join(directory, 'key.pem');
  const certPath = join(directory, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=fake media server',
    ].concat(['-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyPath, '-out', certPath]),
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyPath), cert: readFileSync(certPath), certPath };
}

/** A file encrypted as WhatsApp clients do: AES-256-CBC under keys expanded from `mediaKey`, then a 10-byte HMAC. */
export async function encryptMedia(plain, mediaType, mediaKey = randomBytes(32)) {
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, mediaType);
  const cipher = createCipheriv('aes-256-cbc', cipherKey, iv);
  const ciphertext = Buffer.concat([cipher.update(plain), cipher.final()]);
  const mac = hmacSign(Buffer.concat([iv, ciphertext]), macKey).subarray(0, MAC_BYTES);
  const encrypted = Buffer.concat([ciphertext, mac]);
  return { mediaKey, encrypted, fileSha256: sha256(plain), fileEncSha256: sha256(encrypted), fileLength: plain.length };
}

/** The plain file, after checking the HMAC a recipient checks. */
export async function decryptMedia(encrypted, mediaType, mediaKey) {
  const { iv, cipherKey, macKey } = await getMediaKeys(mediaKey, mediaType);
  const ciphertext = encrypted.subarray(0, encrypted.length - MAC_BYTES);
  const mac = hmacSign(Buffer.concat([iv, ciphertext]), macKey).subarray(0, MAC_BYTES);
  if (!mac.equals(encrypted.subarray(encrypted.length - MAC_BYTES))) throw new Error('media HMAC mismatch');
  const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

const retryKeyOf = (mediaKey) => hkdf(mediaKey, 32, { info: 'WhatsApp Media Retry Notification' });

export class MediaServer {
  constructor(log = () => {}) {
    this.log = log;
    this.auth = randomBytes(24).toString('base64');
    /** pathname of a direct path -> { encrypted, expired } */
    this.files = new Map();
    /** Files contacts sent, by message id: what the sender's phone still has to upload again. */
    this.sent = new Map();
    this.uploads = [];
    /** The path of every file a device fetched (history blobs are only ever fetched, never announced with a URL). */
    this.downloads = [];
  }

  async start() {
    const { key, cert, certPath } = selfSignedCertificate();
    this.certPath = certPath;
    process.once('exit', () => rmSync(dirname(certPath), { recursive: true, force: true }));
    this.server = createServer({ key, cert }, (request, response) => this.request(request, response));
    this.server.on('connection', (socket) => {
      if (!devicePeerAllowed(socket.remoteAddress)) socket.destroy();
    });
    await new Promise((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.host = `127.0.0.1:${this.server.address().port}`;
    return this;
  }

  /** Keeps an encrypted file under a new direct path, as the media server names them. */
  store(encrypted) {
    const directPath = `/v/t62.7118-24/${randomBytes(12).toString('hex')}.enc?ccb=11-4&oh=${randomBytes(8).toString('hex')}`;
    this.files.set(new URL(directPath, 'https://x').pathname, { encrypted, expired: false });
    return { directPath, url: `https://${this.host}${directPath}` };
  }

  async request(request, response) {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const url = new URL(request.url ?? '/', `https://${this.host}`);
    const reply = (status, body, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type });
      response.end(type === 'application/json' ? JSON.stringify(body) : body);
    };
    if (request.method === 'POST' && url.pathname.startsWith('/mms/')) {
      const encrypted = Buffer.concat(chunks);
      const token = url.pathname.split('/').at(-1);
      if (url.searchParams.get('auth') !== this.auth) return reply(401, { error: 'bad auth' });
      if (token !== base64Url(sha256(encrypted))) return reply(400, { error: 'the token is not the SHA-256 of the body' });
      const stored = this.store(encrypted);
      this.uploads.push({ path: url.pathname, directPath: stored.directPath, length: encrypted.length });
      return reply(200, { url: stored.url, direct_path: stored.directPath });
    }
    const file = request.method === 'GET' ? this.files.get(url.pathname) : undefined;
    if (request.method === 'GET') this.downloads.push(url.pathname);
    if (!file) return reply(404, { error: 'no such file' });
    if (file.expired) return reply(410, { error: 'expired' });
    return reply(200, file.encrypted, 'application/octet-stream');
  }

  /** The stored encrypted file a direct path names (undefined when the server has none). */
  fileAt(directPath) {
    return this.files.get(new URL(directPath, 'https://x').pathname);
  }

  /** The server's answer to `media_conn`: where to upload and with what token. */
  mediaConn() {
    return {
      tag: 'media_conn',
      attrs: { auth: this.auth, ttl: '300', auth_ttl: '21600', max_buckets: '12' },
      content: [{ tag: 'host', attrs: { hostname: this.host, maxContentLengthBytes: String(100 * 1024 * 1024) } }],
    };
  }

  /**
   * A device asks for a file again (receipt type `server-error`): the sender's phone decrypts the request with the
   * retry key derived from the message's mediaKey, uploads the file under a new path and answers with a `mediaretry`
   * notification encrypted with that key. A request the phone cannot decrypt is answered with a decryption error.
   */
  reupload(connection, receipt) {
    const sent = this.sent.get(receipt.attrs.id);
    const rmr = getBinaryNodeChild(receipt, 'rmr');
    const encrypt = getBinaryNodeChild(receipt, 'encrypt');
    const retryKey = sent && retryKeyOf(sent.mediaKey);
    const request = { id: receipt.attrs.id, understood: false };
    let result = proto.MediaRetryNotification.ResultType.NOT_FOUND;
    let directPath;
    if (sent && encrypt) {
      try {
        const plain = aesDecryptGCM(
          Buffer.from(getBinaryNodeChild(encrypt, 'enc_p').content),
          retryKey,
          Buffer.from(getBinaryNodeChild(encrypt, 'enc_iv').content),
          Buffer.from(receipt.attrs.id),
        );
        request.understood = proto.ServerErrorReceipt.decode(plain).stanzaId === receipt.attrs.id;
      } catch (error) {
        request.error = String(error?.message ?? error);
      }
      if (request.understood) {
        ({ directPath } = this.store(sent.encrypted));
        result = proto.MediaRetryNotification.ResultType.SUCCESS;
      } else {
        result = proto.MediaRetryNotification.ResultType.DECRYPTION_ERROR;
      }
    }
    this.retries = [...(this.retries ?? []), { ...request, result: proto.MediaRetryNotification.ResultType[result], directPath }];
    const content = [{ tag: 'rmr', attrs: { ...rmr?.attrs } }];
    if (retryKey) {
      const iv = randomBytes(12);
      const notification = proto.MediaRetryNotification.encode({ stanzaId: receipt.attrs.id, directPath, result }).finish();
      const ciphertext = aesEncryptGCM(notification, retryKey, iv, Buffer.from(receipt.attrs.id));
      content.unshift({
        tag: 'encrypt',
        attrs: {},
        content: [
          { tag: 'enc_p', attrs: {}, content: ciphertext },
          { tag: 'enc_iv', attrs: {}, content: iv },
        ],
      });
    } else {
      content.push({ tag: 'error', attrs: { code: String(proto.MediaRetryNotification.ResultType.NOT_FOUND) } });
    }
    connection.send({
      tag: 'notification',
      attrs: {
        from: jidNormalizedUser(connection.device.jid),
        type: 'mediaretry',
        id: receipt.attrs.id,
        t: String(Math.floor(Date.now() / 1000)),
      },
      content,
    });
    return true;
  }
}
