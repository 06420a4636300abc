/**
 * The spec's Chain record (element of `chains` in GET /chains): its schema and how it is built from a
 * configured chain. Pure.
 *
 * Fields the spec names that Ferry has no counterpart for are present with a neutral value, never
 * omitted, so clients written for the public service parse them:
 * - contracts Ferry does not deploy — `onlyOwnerMulticaller`, `erc20Router`, `approvalProxy`,
 *   `v3.erc20Router`, `v3.approvalProxy` — are `""` (empty string = "not deployed on this chain";
 *   Ferry quotes never route through them). `multicall3` is `""` unless configured.
 *   `serviceReceiver` is Ferry's AttestedReceiver, `multicaller` Ferry's Multicaller.
 * - `tokenSupport` is "Limited" (only the configured currencies are bridged); `partialDisableLimit`
 *   0; `surgeEnabled` false; `withdrawalFee`, `depositFee` 0 (fees are quoted per request, not per chain).
 * - `disabled`, `depositEnabled`, `blockProductionLagging` and Ferry's `incident` (why) are the chain's
 *   health now (../chains/chainHealth.ts, observed by ../chains/chainWatch.ts; `withHealth`); without a
 *   watch, the operator's switches alone.
 * - `solverAddresses` is the solver key's address when the solver key is configured, else [].
 * - Ferry's extension: `strayRefundMinimum` on `currency` and each `erc20Currencies` entry.
 * - `attestationSigners` (Ferry's addition) is the attester key's address — the signer of every
 *   attestation GET /requests/{requestId}/signature serves and of the fill attestations the receiver
 *   checks, the same on every chain — so integrators can pin it ([] without an attester key).
 */
import { Type, type Static } from "typebox";
import { getAddress, zeroAddress } from "viem";
import { CONFIG_DEFAULTS, type ChainConfig } from "../config/configSchema.ts";
import { strayRefundMinimum } from "../config/strayRefundMinimum.ts";
import type { Address } from "../model/values.ts";
import { chainHealth, unobserved, type ChainHealth, type ChainIncident } from "../chains/chainHealth.ts";

/** How the record shows an address (the config holds them canonical, lowercase): its EIP-55 checksum. */
const shown = (address: Address) => getAddress(address);

const Currency = {
  id: Type.String(),
  symbol: Type.String(),
  name: Type.String(),
  address: Type.String(),
  decimals: Type.Integer(),
};

/**
 * Ferry's extension of the currency objects of `currency` and `erc20Currencies`: a stray deposit
 * (not matching a quote) below this amount, in smallest units, is not refunded automatically
 * (../config/strayRefundMinimum.ts).
 */
const StrayRefundMinimum = Type.String({
  pattern: "^(0|[1-9][0-9]*)$",
  description: "Ferry: stray deposits (not matching a quote) below this amount, in smallest units, are not refunded automatically",
});

export const CurrencyRecord = Type.Object({ ...Currency, supportsBridging: Type.Boolean(), strayRefundMinimum: StrayRefundMinimum });
export const FeaturedToken = Type.Object({
  ...Currency,
  supportsBridging: Type.Boolean(),
  metadata: Type.Object({ logoURI: Type.String() }),
});
export const Erc20CurrencyRecord = Type.Object({
  ...Currency,
  supportsBridging: Type.Boolean(),
  withdrawalFee: Type.Number(),
  depositFee: Type.Number(),
  surgeEnabled: Type.Boolean(),
  strayRefundMinimum: StrayRefundMinimum,
});
export const SolverCurrency = Type.Object({
  ...Currency,
  capacity: Type.Optional(
    Type.String({
      description:
        "Ferry's addition: what the solver can fill in this currency on this chain now, in smallest units (its balance minus what fills in flight hold, minus one fill's gas for the native currency). A quote for more is answered 400 SOLVER_CAPACITY_EXCEEDED or SOLVER_BALANCE_TOO_LOW. Absent when the chain did not answer.",
    }),
  ),
});

/** A chain's incident (../chains/chainHealth.ts CHAIN_INCIDENTS) or null. */
export const ChainIncidentField = (description: string) =>
  Type.Union(
    [
      Type.Literal("OPERATOR_DISABLED" satisfies ChainIncident),
      Type.Literal("CHAIN_HALTED" satisfies ChainIncident),
      Type.Literal("RPC_UNREACHABLE" satisfies ChainIncident),
      Type.Literal("SOLVER_INVENTORY_EMPTY" satisfies ChainIncident),
      Type.Literal("BLOCK_PRODUCTION_LAGGING" satisfies ChainIncident),
      Type.Null(),
    ],
    { description },
  );

export const ChainRecord = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: "Protocol chain name (same as protocol.v2.chainId)" }),
    displayName: Type.String(),
    httpRpcUrl: Type.String(),
    wsRpcUrl: Type.String({ description: '"" when none is configured' }),
    explorerUrl: Type.String({ description: '"" when none is configured' }),
    explorerName: Type.String(),
    iconUrl: Type.String(),
    depositEnabled: Type.Boolean({ description: "Deposits are taken now: the operator allows them and the chain is neither disabled nor lagging" }),
    tokenSupport: Type.String({ description: '"Limited": only the listed currencies' }),
    disabled: Type.Boolean({
      description: "The service cannot serve the chain now (operator switch, halted after a deep reorg, RPC down on every URL, or no solver inventory in any currency): quotes on it are refused 400 UNSUPPORTED_CHAIN",
    }),
    partialDisableLimit: Type.Number(),
    blockProductionLagging: Type.Boolean({ description: "The chain's head has not advanced for 3 expected block times (chains configured with expectedBlockTimeSeconds)" }),
    incident: ChainIncidentField("Ferry's addition: why the chain is disabled or lagging (the first cause that applies), null when healthy"),
    currency: CurrencyRecord,
    withdrawalFee: Type.Number(),
    depositFee: Type.Number(),
    surgeEnabled: Type.Boolean(),
    featuredTokens: Type.Array(FeaturedToken),
    erc20Currencies: Type.Array(Erc20CurrencyRecord),
    solverCurrencies: Type.Array(SolverCurrency),
    contracts: Type.Object(
      {
        multicall3: Type.String({ description: 'Multicall3 (0xcA11bde05977b3631167028862bE2a173976CA11 where deployed canonically); "" when the chain has none' }),
        multicaller: Type.String({ description: "Ferry's Multicaller: runs a request's destination calls for the solver (holds no approvals, keeps no balance)" }),
        onlyOwnerMulticaller: Type.String({ description: 'Not applicable to Ferry (no owner-only multicaller): always ""' }),
        serviceReceiver: Type.String({ description: "Ferry's AttestedReceiver (fills are made through it)" }),
        erc20Router: Type.String({ description: 'Not applicable to Ferry (deposits go to the Depository, protocol.v2.depository): always ""' }),
        approvalProxy: Type.String({ description: 'Not applicable to Ferry (approvals are given to the Depository): always ""' }),
        v3: Type.Object(
          { erc20Router: Type.String({ description: 'Not applicable: always ""' }), approvalProxy: Type.String({ description: 'Not applicable: always ""' }) },
          { description: "The v3 router contracts: not applicable to Ferry" },
        ),
      },
      { description: 'A contract Ferry does not deploy on this chain is "" (not deployed)' },
    ),
    vmType: Type.String(),
    baseChainId: Type.Integer(),
    solverAddresses: Type.Array(Type.String()),
    attestationSigners: Type.Array(Type.String(), {
      description: "Ferry's addition: the address that signs attestations (GET /requests/{requestId}/signature, fills); pin it",
    }),
    tags: Type.Array(Type.String()),
    protocol: Type.Object({
      v2: Type.Object({ chainId: Type.String(), depository: Type.String() }),
    }),
  },
  { description: "Chain" },
);
export type ChainRecord = Static<typeof ChainRecord>;

/** Marks a contract Ferry does not have on a chain. */
export const NOT_DEPLOYED = "";

/** `strayRefundMinimumUsd`: the solver's default dust threshold (config `solver.strayRefundMinimumUsd`). */
/** A currency's `id` in GET /chains: its symbol, lowercase. */
const currencyId = (symbol: string): string => symbol.toLowerCase();

export function toChainRecord(
  chain: ChainConfig,
  solverAddress: Address | undefined,
  strayRefundMinimumUsd: string = CONFIG_DEFAULTS.solver.strayRefundMinimumUsd,
  attesterAddress?: Address | undefined,
): ChainRecord {
  const native = {
    id: currencyId(chain.nativeCurrency.symbol),
    symbol: chain.nativeCurrency.symbol,
    name: chain.nativeCurrency.name,
    address: zeroAddress,
    decimals: chain.nativeCurrency.decimals,
  };
  const erc20s = chain.erc20Currencies.map((currency) => ({
    id: currencyId(currency.symbol),
    symbol: currency.symbol,
    name: currency.name,
    address: shown(currency.address),
    decimals: currency.decimals,
  }));
  const health = chainHealth(unobserved(chain), 0);
  return {
    id: chain.id,
    name: chain.name,
    displayName: chain.displayName,
    httpRpcUrl: chain.rpcUrl,
    wsRpcUrl: chain.wsRpcUrl ?? "",
    explorerUrl: chain.explorerUrl ?? "",
    explorerName: chain.explorerName ?? "",
    iconUrl: chain.iconUrl ?? "",
    depositEnabled: health.depositEnabled,
    tokenSupport: "Limited",
    disabled: health.disabled,
    partialDisableLimit: 0,
    blockProductionLagging: health.blockProductionLagging,
    incident: health.reason,
    currency: { ...native, supportsBridging: true, strayRefundMinimum: strayRefundMinimum(chain.nativeCurrency, strayRefundMinimumUsd).toString() },
    withdrawalFee: 0,
    depositFee: 0,
    surgeEnabled: false,
    featuredTokens: [
      { ...native, supportsBridging: true, metadata: { logoURI: chain.nativeCurrency.logoURI } },
      ...chain.erc20Currencies.map((currency, i) => ({
        ...erc20s[i]!,
        supportsBridging: true,
        metadata: { logoURI: currency.logoURI },
      })),
    ],
    erc20Currencies: erc20s.map((currency, i) => ({
      ...currency,
      supportsBridging: true,
      withdrawalFee: 0,
      depositFee: 0,
      surgeEnabled: false,
      strayRefundMinimum: strayRefundMinimum(chain.erc20Currencies[i]!, strayRefundMinimumUsd).toString(),
    })),
    solverCurrencies: [native, ...erc20s],
    contracts: {
      multicall3: chain.contracts.multicall3 ? shown(chain.contracts.multicall3) : NOT_DEPLOYED,
      multicaller: shown(chain.contracts.multicaller),
      onlyOwnerMulticaller: NOT_DEPLOYED,
      serviceReceiver: shown(chain.contracts.attestedReceiver),
      erc20Router: NOT_DEPLOYED,
      approvalProxy: NOT_DEPLOYED,
      v3: { erc20Router: NOT_DEPLOYED, approvalProxy: NOT_DEPLOYED },
    },
    vmType: "evm",
    baseChainId: chain.baseChainId,
    solverAddresses: solverAddress ? [shown(solverAddress)] : [],
    attestationSigners: attesterAddress ? [shown(attesterAddress)] : [],
    tags: chain.tags,
    protocol: { v2: { chainId: chain.name, depository: shown(chain.contracts.depository) } },
  };
}

/** The record with each solver currency's `capacity` from the inventory's lines (currencies without a line keep none). */
export function withCapacity(record: ChainRecord, lines: readonly { currency: Address; available: bigint }[]): ChainRecord {
  return {
    ...record,
    solverCurrencies: record.solverCurrencies.map((currency) => {
      const line = lines.find((l) => shown(l.currency) === currency.address);
      return line ? { ...currency, capacity: line.available.toString() } : currency;
    }),
  };
}

/** The record with the chain's health now (../chains/chainWatch.ts). */
export function withHealth(record: ChainRecord, health: ChainHealth): ChainRecord {
  return { ...record, ...healthFields(health) };
}

/** The chain health fields GET /chains and GET /ready show, as both name them. */
export function healthFields(health: ChainHealth): { disabled: boolean; depositEnabled: boolean; blockProductionLagging: boolean; incident: ChainHealth["reason"] } {
  return { disabled: health.disabled, depositEnabled: health.depositEnabled, blockProductionLagging: health.blockProductionLagging, incident: health.reason };
}
