import type { Operation } from './common';

/** The file of a received media message, base64-encoded. */
export interface DownloadedMedia {
  mimeType: string;
  data: string;
  filename?: string;
}

/** Files of messages the account received. */
export interface MediaOperations {
  /** `mediaId` is the `media.id` of a `message` event; one this account never received is not_found. */
  'media.download': Operation<{ mediaId: string }, DownloadedMedia>;
}
