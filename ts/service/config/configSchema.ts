/**
 * The service configuration file (`FERRY_CONFIG`, JSON) as a TypeBox schema, and the resolved
 * configuration type the service runs with. The file never holds private keys: they come from the
 * environment only (see `parseConfig.ts`), and any unknown field — a `keys` object included — is
 * rejected.
 */
import { Type, type Static } from "typebox";
import type { Address } from "viem";
import type { Secret } from "./secret.ts";

const AddressString = Type.String({ pattern: "^0x[0-9a-fA-F]{40}$", description: "EVM address" });
const Name = Type.String({ minLength: 1, maxLength: 100 });
const HttpUrl = Type.String({ pattern: "^https?://", maxLength: 2048 });
const WsUrl = Type.String({ pattern: "^wss?://", maxLength: 2048 });
const Decimals = Type.Integer({ minimum: 0, maximum: 255 });

export const CurrencyFileSchema = Type.Object(
  {
    address: AddressString,
    symbol: Name,
    name: Name,
    decimals: Decimals,
    logoURI: Type.Optional(Type.String({ maxLength: 2048 })),
  },
  { additionalProperties: false },
);

export const ChainFileSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
    /** Protocol chain name: `protocol.v2.chainId` in /chains and the chain ids inside orderData. */
    name: Type.String({ pattern: "^[a-z0-9][a-z0-9-]*$", maxLength: 64 }),
    displayName: Name,
    rpcUrl: HttpUrl,
    wsRpcUrl: Type.Optional(WsUrl),
    explorerUrl: Type.Optional(HttpUrl),
    explorerName: Type.Optional(Type.String({ maxLength: 100 })),
    iconUrl: Type.Optional(Type.String({ maxLength: 2048 })),
    confirmations: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
    nativeCurrency: Type.Object(
      { symbol: Name, name: Name, decimals: Decimals, logoURI: Type.Optional(Type.String({ maxLength: 2048 })) },
      { additionalProperties: false },
    ),
    erc20Currencies: Type.Optional(Type.Array(CurrencyFileSchema)),
    /** Absent contracts are read from `<deploymentsDir>/<id>.json`. */
    contracts: Type.Optional(
      Type.Object(
        {
          depository: Type.Optional(AddressString),
          attestedReceiver: Type.Optional(AddressString),
          multicaller: Type.Optional(AddressString),
          /** The canonical Multicall3 when the chain has it; "" in /chains otherwise. */
          multicall3: Type.Optional(AddressString),
        },
        { additionalProperties: false },
      ),
    ),
    depositEnabled: Type.Optional(Type.Boolean()),
    disabled: Type.Optional(Type.Boolean()),
    baseChainId: Type.Optional(Type.Integer({ minimum: 1 })),
    tags: Type.Optional(Type.Array(Type.String({ maxLength: 64 }))),
  },
  { additionalProperties: false },
);

export const ConfigFileSchema = Type.Object(
  {
    server: Type.Optional(
      Type.Object(
        {
          host: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
          port: Type.Optional(Type.Integer({ minimum: 0, maximum: 65_535 })),
          bodyLimitBytes: Type.Optional(Type.Integer({ minimum: 1024, maximum: 100 * 1024 * 1024 })),
        },
        { additionalProperties: false },
      ),
    ),
    chains: Type.Optional(Type.Array(ChainFileSchema)),
    database: Type.Optional(
      Type.Object(
        {
          /** Prefer DATABASE_URL: it may carry a password. */
          url: Type.Optional(Type.String({ pattern: "^postgres(ql)?://" })),
          dataDir: Type.Optional(Type.String({ minLength: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    rateLimits: Type.Optional(
      Type.Object(
        {
          anonymousPerMinute: Type.Optional(Type.Integer({ minimum: 1 })),
          apiKeyPerMinute: Type.Optional(Type.Integer({ minimum: 1 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** Where `<chainId>.json` deployment records are; relative to the config file's folder. */
    deploymentsDir: Type.Optional(Type.String({ minLength: 1 })),
    /** Names of the env variables holding each private key (the keys themselves are never in the file). */
    keyEnv: Type.Optional(
      Type.Object(
        {
          allocator: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
          attester: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
          solver: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
          relayer: Type.Optional(Type.String({ pattern: "^[A-Z_][A-Z0-9_]*$" })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ConfigFile = Static<typeof ConfigFileSchema>;
export type ChainFile = Static<typeof ChainFileSchema>;

export type KeyRole = "allocator" | "attester" | "solver" | "relayer";
export const KEY_ROLES: readonly KeyRole[] = ["allocator", "attester", "solver", "relayer"];

export type CurrencyConfig = { address: Address; symbol: string; name: string; decimals: number; logoURI: string };

export type ChainConfig = {
  id: number;
  name: string;
  displayName: string;
  rpcUrl: string;
  wsRpcUrl?: string;
  explorerUrl?: string;
  explorerName?: string;
  iconUrl?: string;
  confirmations: number;
  nativeCurrency: { symbol: string; name: string; decimals: number; logoURI: string };
  erc20Currencies: CurrencyConfig[];
  contracts: { depository: Address; attestedReceiver: Address; multicaller: Address; multicall3?: Address };
  /** First block of the deployment (where an indexer starts), when a deployment record was read. */
  deploymentBlock?: number;
  depositEnabled: boolean;
  disabled: boolean;
  baseChainId: number;
  tags: string[];
};

/** The chain as written in the file after defaults, before contracts are resolved from records. */
export type UnresolvedChainConfig = Omit<ChainConfig, "contracts"> & { contracts: Partial<ChainConfig["contracts"]> };

export type FerryConfig = {
  server: { host: string; port: number; bodyLimitBytes: number };
  chains: ChainConfig[];
  database: { url?: Secret; dataDir: string };
  rateLimits: { anonymousPerMinute: number; apiKeyPerMinute: number };
  deploymentsDir: string;
  /** Private keys from the environment; `Secret` prints as `[redacted]`. */
  keys: Partial<Record<KeyRole, Secret>>;
  /** The public address of each configured key (safe to log and to publish, e.g. solverAddresses). */
  accounts: Partial<Record<KeyRole, Address>>;
};

export type UnresolvedFerryConfig = Omit<FerryConfig, "chains"> & { chains: UnresolvedChainConfig[] };

export const CONFIG_DEFAULTS = {
  host: "127.0.0.1",
  port: 8080,
  bodyLimitBytes: 1024 * 1024,
  dataDir: ".ferry/data",
  deploymentsDir: "deployments",
  confirmations: 1,
  anonymousPerMinute: 120,
  apiKeyPerMinute: 1200,
  keyEnv: {
    allocator: "FERRY_ALLOCATOR_KEY",
    attester: "FERRY_ATTESTER_KEY",
    solver: "FERRY_SOLVER_KEY",
    relayer: "FERRY_RELAYER_KEY",
  } satisfies Record<KeyRole, string>,
} as const;
