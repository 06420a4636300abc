/**
 * `.devnet/devnet.json` as the CLI reads it (`npm start` writes it: ts/devnet/devnetFile.ts): the
 * service's URL and admin token (for `ferry keys|webhooks|requests` on a running devnet), the chains'
 * RPC URLs and the test accounts (for `ferry devnet send-steps`). Decoded once here; a file that does
 * not match is DEVNET_FILE_INVALID naming the field. Where it is: ./devnetDir.ts.
 */
import { Type, type Static } from "typebox";
import { Value } from "typebox/value";
import { FerryError } from "../core/errors.ts";
import { readInput, type CliIo } from "./cliIo.ts";

const Hex = (bytes: number) => Type.String({ pattern: `^0x[0-9a-fA-F]{${bytes * 2}}$` });

export const DevnetJson = Type.Object({
  apiUrl: Type.String({ pattern: "^https?://" }),
  /** The devnet service's admin token (FERRY_ADMIN_TOKEN): a devnet credential, like the test keys. */
  adminToken: Type.Optional(Type.String({ minLength: 1 })),
  apiKey: Type.Optional(Type.String()),
  chains: Type.Array(Type.Object({ id: Type.Integer({ minimum: 1 }), name: Type.String(), rpcUrl: Type.String({ pattern: "^https?://" }) })),
  accounts: Type.Array(Type.Object({ address: Hex(20), privateKey: Hex(32), role: Type.String() })),
});
export type DevnetJson = Static<typeof DevnetJson>;

/** devnet.json is missing or does not hold what the CLI needs. Exit 2. */
export class DevnetFileError extends FerryError {
  constructor(code: "DEVNET_FILE_MISSING" | "DEVNET_FILE_INVALID", message: string) {
    super(code, message);
  }
}

export async function readDevnetJson(io: CliIo, path: string): Promise<DevnetJson> {
  let text: string;
  try {
    text = (await readInput(io, path)).toString("utf8");
  } catch {
    throw new DevnetFileError("DEVNET_FILE_MISSING", `no ${path}: start the devnet with npm start (or pass --devnet-dir)`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DevnetFileError("DEVNET_FILE_INVALID", `${path} is not valid JSON: restart the devnet (npm start) to rewrite it`);
  }
  const error = Value.Errors(DevnetJson, json)[0];
  if (error) throw new DevnetFileError("DEVNET_FILE_INVALID", `${path}: ${error.instancePath || "(root)"} ${error.message}: restart the devnet (npm start) to rewrite it`);
  return json as DevnetJson;
}
