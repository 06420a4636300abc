/**
 * The devnet's ports: from the environment (0 = any free port), and checked free before anything
 * starts, so a port in use is one line naming the variables to change — not a stack trace from deep
 * inside the JSON-RPC server (which throws EADDRINUSE where no caller can catch it).
 */
import { createServer } from "node:net";
import { FerryError } from "../core/errors.ts";

/** The variables that move the devnet's ports, named in every port error. */
export const DEVNET_PORT_VARIABLES = ["FERRY_DEVNET_ORIGIN_PORT", "FERRY_DEVNET_DESTINATION_PORT", "FERRY_PORT"] as const;

/** A TCP port from the environment (0 = any free port), else the default. */
export function portFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const port = Number(raw);
  if (!/^\d{1,5}$/.test(raw) || port > 65_535) throw new FerryError("INVALID_PORT", `${name} must be a port number (0-65535; 0 = any free port)`);
  return port;
}

/** A port the devnet needs is taken. */
export class DevnetPortInUseError extends FerryError {
  constructor(host: string, port: number, role: string) {
    super(
      "PORT_IN_USE",
      `${host}:${port} (${role}) is in use: stop what listens there (an earlier npm start?) or move the devnet with ${DEVNET_PORT_VARIABLES.join(", ")} (0 = any free port)`,
    );
  }
}

/** Throws DevnetPortInUseError for the first of `ports` (0 skipped) that cannot be bound on `host`. */
export async function assertPortsFree(host: string, ports: ReadonlyArray<{ port: number; role: string }>): Promise<void> {
  for (const { port, role } of ports) {
    if (port === 0) continue;
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
    });
    if (!free) throw new DevnetPortInUseError(host, port, role);
  }
}
