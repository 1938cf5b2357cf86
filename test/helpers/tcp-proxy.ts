import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Stops passing bytes either way, connections left open: a database that stopped answering. */
  freeze(): void;
  /** Drops every open connection (a database restart); new ones are proxied as before. */
  cut(): void;
  /** The connections open now stop passing bytes for good, left open; new ones are proxied as before (a half-dead network path). */
  silenceOpen(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `target` that can be frozen. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  const sockets = new Set<net.Socket>();
  const silenced = new WeakSet<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    if (frozen) return client.pause();
    const upstream = net.connect(target.port, target.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    const passes = () => !frozen && !silenced.has(client);
    client.on('data', (d) => void (passes() && upstream.write(d)));
    upstream.on('data', (d) => void (passes() && client.write(d)));
    client.on('end', () => passes() && upstream.end());
    upstream.on('end', () => passes() && client.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    freeze: () => void (frozen = true),
    cut: () => {
      for (const s of sockets) s.destroy();
    },
    silenceOpen: () => {
      for (const s of sockets) silenced.add(s);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
