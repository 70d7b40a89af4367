import type { BaileysSocket } from '../baileys-library';
import { childOf, textOf, type Node } from './binary-nodes';
import { appErrorFor, unexpectedAnswer } from './network-errors';

/**
 * The network's persisted GraphQL query for the channels an account follows (WA Web's
 * `WAWebMexFetchAllNewslettersMetadataJobQuery`). Baileys rc14 has no call for it, so it is sent the way Baileys
 * sends its other channel queries (a `w:mex` IQ). The server requires every declared variable to be present.
 */
export const FOLLOWED_QUERY = {
  id: '25399611239711790',
  variables: { fetch_status_metadata: true, fetch_wamo_sub: true },
  path: 'xwa2_newsletter_subscribed',
} as const;

interface MexAnswer {
  data?: Record<string, unknown>;
  errors?: { message?: string; extensions?: { error_code?: number } }[];
}

/** The channels this account follows, each as the network describes it (`thread_metadata`, `viewer_metadata`). */
export async function followedNewsletters(socket: BaileysSocket): Promise<unknown[]> {
  const answer = (await socket.query({
    tag: 'iq',
    attrs: { type: 'get', xmlns: 'w:mex', to: 's.whatsapp.net' },
    content: [
      {
        tag: 'query',
        attrs: { query_id: FOLLOWED_QUERY.id },
        content: Buffer.from(JSON.stringify({ variables: FOLLOWED_QUERY.variables }), 'utf-8'),
      },
    ],
  })) as Node;
  const json = textOf(childOf(answer, 'result'));
  if (!json) throw unexpectedAnswer('the followed channels');
  const parsed = JSON.parse(json) as MexAnswer;
  const [failure] = parsed.errors ?? [];
  if (failure) {
    const text = failure.message ?? 'unknown error';
    throw appErrorFor(failure.extensions?.error_code ?? 400, text) ?? new Error(`the network refused the query: ${text}`);
  }
  const list = parsed.data?.[FOLLOWED_QUERY.path];
  if (!Array.isArray(list)) throw unexpectedAnswer('the followed channels');
  return list as unknown[];
}
