// Runs the fake WhatsApp Web network on 127.0.0.1 as its own process (Baileys is ESM; Jest cannot load it) and prints
// one JSON line with its addresses and root key. Tests drive it through the small HTTP control API below.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { makeCertificateAuthority } from './noise.mjs';
import { FakeNetwork } from './network.mjs';
import { controlRoutes } from './control.mjs';
import { MediaServer } from './media-server.mjs';
import { mediaHandlers, mediaRoutes } from './media.mjs';
import { Groups, groupHandlers, groupRoutes } from './groups.mjs';
import { historyRoutes } from './history.mjs';
import { Retries, retryHandlers, retryRoutes } from './retries.mjs';
import { ContactDevices, deviceRoutes } from './devices.mjs';
import { AppState, appStateHandlers, appStateRoutes } from './app-state.mjs';
import { ErrorAcks, errorAckHandlers, errorAckRoutes } from './error-acks.mjs';
import { LinkDrops, linkDropHandlers, linkDropRoutes } from './link-drops.mjs';
import { Rivals, rivalRoutes } from './rival.mjs';
import { devicePeerAllowed, peerGuardRoutes } from './peer-guard.mjs';

const verbose = process.env.FAKE_NETWORK_VERBOSE === '1';
const network = new FakeNetwork(makeCertificateAuthority(), (line) => verbose && process.stderr.write(`fake-network: ${line}\n`));
const media = await new MediaServer().start();
const groups = new Groups(network);
const errorAcks = new ErrorAcks(network);
const linkDrops = new LinkDrops(network);
const retries = new Retries(network);
const appState = new AppState(network, media);
// Refusals first: a refused stanza reaches no group or contact. Link drops next: their stanzas reach the contact.
network.handlers.push(
  errorAckHandlers(errorAcks),
  linkDropHandlers(linkDrops),
  mediaHandlers(media),
  groupHandlers(groups),
  retryHandlers(retries),
  appStateHandlers(appState),
);
network.firstLoginHooks.push((device) => appState.firstLogin(device));
const routes = [
  ...controlRoutes(network),
  ...mediaRoutes(network, media),
  ...groupRoutes(network, groups),
  ...historyRoutes(network, media),
  ...retryRoutes(network, retries),
  ...deviceRoutes(new ContactDevices(network)),
  ...appStateRoutes(network, appState),
  ...errorAckRoutes(errorAcks),
  ...linkDropRoutes(linkDrops),
  ...rivalRoutes(network, new Rivals(network)),
  ...peerGuardRoutes(),
];

const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? '/', 'http://fake');
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  const reply = (status, body) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? null));
  };
  try {
    const key = `${request.method} ${url.pathname}`;
    const route = routes.find(([pattern]) => pattern.test(key));
    if (!route) return reply(404, { error: `no route ${key}` });
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
    reply(200, await route[1]({ body, match: key.match(route[0]), query: url.searchParams }));
  } catch (error) {
    reply(error.status ?? 500, { error: String(error.message ?? error) });
  }
});

const sockets = new WebSocketServer({
  server,
  path: '/ws/chat',
  verifyClient: ({ req }) => devicePeerAllowed(req.socket.remoteAddress),
});
sockets.on('connection', (socket) => network.attach(socket));

server.listen(Number(process.env.FAKE_NETWORK_PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(
    `${JSON.stringify({
      webSocketUrl: `ws://127.0.0.1:${port}/ws/chat`,
      controlUrl: `http://127.0.0.1:${port}`,
      rootPublicKey: Buffer.from(network.authority.rootPublicKey).toString('hex'),
      mediaCertificate: media.certPath,
      mediaOrigin: `https://${media.host}`,
    })}\n`,
  );
});

for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => process.exit(0));
