import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/** A loopback TCP proxy whose open connections a test can cut while it keeps accepting new ones. */
export interface BreakableProxy {
  url: string;
  /** The first bytes each client connection sent (an HTTP request's head), in connection order. */
  requestHeads: string[];
  /** Cuts every open connection, as a flaky network or a restarted load balancer would. */
  dropConnections(): void;
  close(): Promise<void>;
}

export async function startBreakableProxy(target: URL): Promise<BreakableProxy> {
  const sockets = new Set<Socket>();
  const requestHeads: string[] = [];
  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.once('data', (chunk: Buffer) => requestHeads.push(chunk.toString('latin1').split('\r\n\r\n')[0]));
    client.pipe(upstream).pipe(client);
    const dropBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', dropBoth);
    upstream.on('close', dropBoth);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requestHeads,
    dropConnections: () => sockets.forEach((socket) => socket.destroy()),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      sockets.forEach((socket) => socket.destroy());
      await closed;
    },
  };
}
