// Another gateway's equivalent routes (the "peer"), so that bench/reads.mjs and bench/send-accept.mjs load it with the
// same cases, connections and durations in the same run as this gateway and the bare NestJS floor.
//
//   --target=evolution|waha         which API the peer speaks (BENCH_TARGET)
//   --target-url=http://host:port   its base URL (BENCH_TARGET_URL)
//   --target-key=KEY                its API key (BENCH_TARGET_KEY): Evolution API's `apikey` header, WAHA's `X-Api-Key`
//   --target-instances=paired=NAME,unpaired=NAME,pairing=NAME,disconnected=NAME
//                                   the peer's instances (Evolution) or sessions (WAHA) in those states
//                                   (BENCH_TARGET_INSTANCES); a state not named is not measured on the peer
//   --target-to=DIGITS              the recipient of the peer's sends (BENCH_TARGET_TO); an accepted send really goes out
//
// The routes, from the peers' public documentation (see docs/scaling.md, "Side by side with another gateway"):
//   Evolution API v2  GET /instance/connectionState/{instance}, `apikey` header (as EvolutionAPI/evolution-api#2216
//                     quotes it; answer {instance: {instanceName, state}}), POST /message/sendText/{instance}
//                     {number, text} (doc.evolution-api.com/v2/api-reference/message-controller/send-text)
//   WAHA              GET /api/sessions/{session} (waha.devlike.pro/docs/how-to/sessions), POST /api/sendText
//                     {session, chatId, text} (waha.devlike.pro), `X-Api-Key` header (waha.devlike.pro/docs/how-to/security)
// Their answers are counted by status code and not required to be 2xx: a peer refuses a send to an unconnected instance
// with whatever status it chose, and the report prints which.

const KINDS = {
  evolution: {
    header: 'apikey',
    status: (base, name) => ({ method: 'GET', url: `${base}/instance/connectionState/${encodeURIComponent(name)}` }),
    sendText: (base, name, to, text) => ({
      method: 'POST',
      url: `${base}/message/sendText/${encodeURIComponent(name)}`,
      body: { number: to, text },
    }),
  },
  waha: {
    header: 'X-Api-Key',
    status: (base, name) => ({ method: 'GET', url: `${base}/api/sessions/${encodeURIComponent(name)}` }),
    sendText: (base, name, to, text) => ({
      method: 'POST',
      url: `${base}/api/sendText`,
      body: { session: name, chatId: `${to}@c.us`, text },
    }),
  },
};

export const PEER_STATES = ['paired', 'unpaired', 'pairing', 'disconnected'];

function setting(argv, flag, envName) {
  const prefix = `--${flag}=`;
  return argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? process.env[envName] ?? undefined;
}

/**
 * The peer named on the command line or in the environment, or null when none is. Throws on an incomplete or
 * malformed description (a typo must not silently measure nothing).
 */
export function peerTarget(argv) {
  const kind = setting(argv, 'target', 'BENCH_TARGET');
  const url = setting(argv, 'target-url', 'BENCH_TARGET_URL');
  const key = setting(argv, 'target-key', 'BENCH_TARGET_KEY');
  const listed = setting(argv, 'target-instances', 'BENCH_TARGET_INSTANCES');
  const to = setting(argv, 'target-to', 'BENCH_TARGET_TO') ?? '447700900123';
  if (kind === undefined && url === undefined) return null;
  if (!KINDS[kind]) throw new Error(`--target must be one of ${Object.keys(KINDS).join(', ')}, got ${JSON.stringify(kind)}`);
  if (!url || !/^https?:\/\//.test(url)) throw new Error('--target-url must be the peer base URL (http://host:port)');
  if (!key) throw new Error('--target-key (or BENCH_TARGET_KEY) is required with --target');
  if (!/^\d{6,15}$/.test(to)) throw new Error('--target-to must be the recipient number as 6-15 digits');
  const instances = {};
  for (const pair of (listed ?? '').split(',').filter(Boolean)) {
    const [state, name] = pair.split('=');
    if (!PEER_STATES.includes(state) || !name) {
      throw new Error(`--target-instances: expected state=name with state one of ${PEER_STATES.join(', ')}, got ${JSON.stringify(pair)}`);
    }
    instances[state] = name;
  }
  if (Object.keys(instances).length === 0) throw new Error('--target-instances must name at least one instance (e.g. paired=NAME)');
  const spec = KINDS[kind];
  const base = url.replace(/\/+$/, '');
  const headers = { [spec.header]: key };
  return {
    kind,
    baseUrl: base,
    instances,
    /** The peer's status read of the instance in `state`, or null when none was named. */
    status(state) {
      const name = instances[state];
      return name ? { ...spec.status(base, name), headers } : null;
    },
    /** The peer's text send from the instance in `state`, or null when none was named. */
    sendText(state, text = 'bench') {
      const name = instances[state];
      return name ? { ...spec.sendText(base, name, to, text), headers } : null;
    },
  };
}
