// Proxy tests prove a device's traffic took the proxy: with FAKE_NETWORK_DEVICE_PEERS (comma-separated addresses, e.g.
// the 127.0.0.3 tinyproxy binds its outgoing connections to) the WebSocket and the media server refuse every other peer.
// The control API stays open to the test.
const peers = (process.env.FAKE_NETWORK_DEVICE_PEERS ?? '')
  .split(',')
  .map((peer) => peer.trim())
  .filter(Boolean);

/** Addresses refused so far, in order (the test reads them through `GET /refused-peers`). */
export const refusedPeers = [];

export function devicePeerAllowed(address) {
  if (peers.length === 0) return true;
  const peer = (address ?? '').replace(/^::ffff:/, '');
  if (peers.includes(peer)) return true;
  refusedPeers.push(peer);
  return false;
}

export const peerGuardRoutes = () => [[/^GET \/refused-peers$/, () => refusedPeers]];
