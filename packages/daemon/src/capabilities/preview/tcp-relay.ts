import net from 'node:net';

/** A TCP relay: every connection to its port is piped to `target`. */
export interface TcpRelay {
  /** Its address ("http://<host>:<port>" for an HTTP app behind it). */
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Scale-out: a server app's preview runs on the worker that built it and is reached through the
 * coordinator, so each side relays bytes — the coordinator's preview port to the worker, the
 * worker's outward port to the app on its loopback. Plain TCP: HTTP, WebSocket and HMR pass as they
 * are. A connection the target refuses is closed; the relay itself stays up until closed.
 */
export function startTcpRelay(
  listen: { host: string; port?: number },
  target: { host: string; port: number },
): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port ?? 0, listen.host, () => {
      server.off('error', reject);
      const { port } = server.address() as net.AddressInfo;
      resolve({
        host: listen.host,
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** "http://host:port" with IPv6 literals in brackets. */
export const httpOrigin = (host: string, port: number): string =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
