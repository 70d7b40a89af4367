import type { FakeNetworkProcess } from './fake-network';

/** A file as a contact downloaded it: from the media server by its direct path, checked against the message's hashes. */
export interface ReceivedFile {
  /** The message field that carried it, e.g. `imageMessage`. */
  field: string;
  /** The host of the message's `url` (the media server's). */
  urlHost: string;
  /** sha256 of the stored encrypted file equals the message's fileEncSha256. */
  encryptedMatches: boolean;
  /** sha256 of the decrypted file equals the message's fileSha256. */
  plainMatches: boolean;
  /** The decrypted file, base64. */
  data: string;
}

/** A device's request for an expired file, as the sender's phone handled it. */
export interface MediaRetry {
  id: string;
  /** The phone decrypted the request with the key derived from the message's mediaKey. */
  understood: boolean;
  result: 'SUCCESS' | 'DECRYPTION_ERROR' | 'NOT_FOUND' | 'GENERAL_ERROR';
  directPath?: string;
  error?: string;
}

export interface ContactFile {
  mediaType: 'image' | 'document' | 'audio' | 'video' | 'sticker';
  mimetype: string;
  data: Buffer;
  caption?: string;
  fileName?: string;
}

/** The media side of the fake network's control API (`media.mjs`). */
export class FakeMedia {
  constructor(private readonly network: FakeNetworkProcess) {}

  /** The contact encrypts a file, uploads it to the media server and sends our device a message naming it. */
  send(from: string, to: string, file: ContactFile): Promise<{ id: string; directPath: string }> {
    return this.network.call('POST', '/contacts/send-media', { from, to, ...file, data: file.data.toString('base64') });
  }

  /** The file of a message the contact received from our device, downloaded and decrypted as its phone would. */
  received(phone: string, id: string): Promise<ReceivedFile> {
    return this.network.call('GET', `/media/received?phone=${phone}&id=${encodeURIComponent(id)}`);
  }

  /** The media server answers 410 Gone for the file a contact sent in message `id` from now on. */
  async expire(id: string): Promise<void> {
    await this.network.call('POST', '/media/expire', { id });
  }

  retries(): Promise<MediaRetry[]> {
    return this.network.call('GET', '/media/retries');
  }

  uploads(): Promise<{ path: string; directPath: string; length: number }[]> {
    return this.network.call('GET', '/media/uploads');
  }
}
