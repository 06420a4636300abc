/**
 * A TCP relay on 127.0.0.1:<ephemeral> to a local port, that a test can cut: how the chain head tests
 * drop a websocket without stopping the chain behind it. No tests here.
 */
import { connect, createServer, type AddressInfo, type Socket } from "node:net";

export type TcpRelay = {
  /** ws://127.0.0.1:<relay port> */
  wsUrl: string;
  /** Connections accepted so far. */
  connections(): number;
  /** Whether a connection is open. */
  open(): boolean;
  /** Destroys every open connection (both sides); the relay keeps listening. */
  cut(): void;
  /** Stops listening and cuts what is open. */
  close(): void;
};

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    const upstream = connect(targetPort, "127.0.0.1");
    sockets.add(socket).add(upstream);
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
    socket.on("close", () => sockets.delete(socket));
    upstream.on("close", () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const cut = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    wsUrl: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    open: () => sockets.size > 0,
    cut,
    close() {
      server.close();
      cut();
    },
  };
}
