/**
 * The heartbeat: every `intervalMs`, each open connection is pinged, and one that has not answered
 * the previous ping (a pong, which every conforming client sends by itself) is terminated. A dead
 * peer (network gone, process frozen) is thus dropped within two intervals and its subscriptions
 * freed, instead of holding memory until TCP notices.
 */
export type Heartbeating = { heartbeat(): boolean };

export type Heartbeat = { stop(): void };

export function startHeartbeat(connections: Iterable<Heartbeating>, intervalMs: number): Heartbeat {
  const timer = setInterval(() => {
    for (const connection of [...connections]) connection.heartbeat();
  }, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
