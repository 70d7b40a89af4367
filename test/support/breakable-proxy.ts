import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

/** A loopback TCP proxy whose open connections a test can cut while it keeps accepting new ones. */
export interface BreakableProxy {
  url: string;
  /** The first bytes each client connection sent (an HTTP request's head), in connection order. */
  requestHeads: string[];
  /** Cuts every open connection, as a flaky network or a restarted load balancer would. */
  dropConnections(): void;
  /** New connections are accepted but not forwarded until `release()`: the client cannot get through meanwhile. */
  hold(): void;
  /** How many connections `hold()` is keeping waiting. */
  waiting(): number;
  release(): void;
  close(): Promise<void>;
}

export async function startBreakableProxy(target: URL): Promise<BreakableProxy> {
  const sockets = new Set<Socket>();
  const requestHeads: string[] = [];
  let held: (() => void)[] | undefined;
  const forward = (client: Socket) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => undefined);
    client.once('data', (chunk: Buffer) => requestHeads.push(chunk.toString('latin1').split('\r\n\r\n')[0]));
    client.pipe(upstream).pipe(client);
    const dropBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', dropBoth);
    upstream.on('close', dropBoth);
  };
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (held) held.push(() => forward(client));
    else forward(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requestHeads,
    dropConnections: () => sockets.forEach((socket) => socket.destroy()),
    hold: () => {
      held ??= [];
    },
    waiting: () => held?.length ?? 0,
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      waiting.forEach((start) => start());
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      sockets.forEach((socket) => socket.destroy());
      await closed;
    },
  };
}
