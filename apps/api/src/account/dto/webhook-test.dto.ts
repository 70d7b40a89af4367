export class WebhookTestResultDto {
  /** Where the test event went: the instance's effective webhook URL. */
  url!: string;
  /** The receiver answered 2xx. */
  delivered!: boolean;
  /** The receiver's HTTP status; absent when no answer came (connection refused, timeout, address not allowed). */
  statusCode?: number;
  durationMs!: number;
  /** The first 300 characters of the receiver's answer. */
  responseSnippet?: string;
  /** Why it was not delivered. */
  error?: string;
}
