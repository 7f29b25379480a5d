/**
 * A TCP relay the test controls, between a client and a real server (PostgreSQL, RabbitMQ): `cut()`
 * severs every connection and refuses new ones (the server is "away" for the client, while other
 * tests keep using it directly), `restore()` lets connections through again.
 *
 * @example
 * const relay = await openTcpRelay('127.0.0.1', 5432);
 * const database = createDatabase({ url: `postgres://postgres@127.0.0.1:${relay.port}/test` });
 * relay.cut(); // the next statements fail
 * relay.restore();
 */
import { createServer, connect as connectTcp, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpRelay {
  /** The relay's own port on 127.0.0.1. */
  port: number;
  /** Severs every relayed connection and refuses new ones until `restore()`. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function openTcpRelay(host: string, port: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let severed = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (severed) {
      client.destroy();
      return;
    }
    const upstream = connectTcp(port, host);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      severed = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      severed = false;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
