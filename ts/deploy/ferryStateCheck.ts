/**
 * `ferry deploy --check`, the pure part: the observed onchain state of a Ferry deployment against
 * what it should be, one row per fact. ferryDeployment.ts reads the chain; this file only compares.
 */
import { isAddressEqual, zeroAddress, type Address, type Hex } from "viem";
import { FERRY_ARTIFACTS, type FerryContractName } from "./ferryArtifacts.ts";
import { forwarderImplementation } from "../core/depositAddress.ts";
import { runtimeCodeFingerprint } from "./runtimeCode.ts";
import type { FerryAddresses } from "./ferryPlan.ts";

/** The EIP-712 name and version the Depository is built with. */
export const DEPOSITORY_EIP712 = { name: "FerryDepository", version: "1" } as const;

export type ExpectedFerryState = {
  owner: Address;
  /** The owner a two-step transfer is waiting on; absent = no transfer pending. */
  pendingOwner?: Address;
  /**
   * The deployer, when `owner` is the target of its handover: the state "owned by `handoverFrom`, transfer
   * to `owner` pending" then passes too (reported as pending), as well as "owned by `owner`".
   */
  handoverFrom?: Address;
  allocator: Address;
  signers: readonly Address[];
  /** ERC-20 destination currencies that must be listed on the AttestedReceiver. */
  currencies?: readonly Address[];
};

export type ObservedOwnable = { owner: Address; pendingOwner: Address };

/** What ferryDeployment.ts read; a contract without code has only `code`. */
export type ObservedFerryState = {
  chainId: number;
  /** "ok", or why the chain cannot run this build's opcodes (ts/deploy/evmSupport.ts). */
  evmSupport?: string;
  code: Record<FerryContractName, Hex | undefined>;
  depository?: ObservedOwnable & {
    allocator: Address;
    /** A proposed allocator change (zero: none). */
    pendingAllocator?: Address;
    eip712Domain: { name: string; version: string; chainId: bigint; verifyingContract: Address };
  };
  /** Each compact entry point's probe (./entryPoints.ts), by signature: what the deployed code answered. */
  entryPoints?: ReadonlyArray<{ contract: string; signature: string; expected: string; verdict: string }>;
  /** The factory's immutables: the Depository it serves and the forwarder implementation it created. */
  depositAddressFactory?: { depository: Address; implementation: Address };
  attestedReceiver?: ObservedOwnable & {
    multicaller: Address;
    signers: ReadonlyArray<{ signer: Address; allowed: boolean }>;
    currencies?: ReadonlyArray<{ currency: Address; allowed: boolean }>;
  };
};

export type CheckRow = { contract: string; field: string; expected: string; actual: string; ok: boolean };

const NO_CODE = "no code";
const NONE = "none";

/** One row per fact, in a fixed order: code, entry points, immutables, owner, pendingOwner, configuration. */
export function compareFerryState(args: {
  addresses: FerryAddresses;
  expected: ExpectedFerryState;
  observed: ObservedFerryState;
}): CheckRow[] {
  const { addresses, expected, observed } = args;
  const rows: CheckRow[] = [];
  const row = (contract: string, field: string, expectedValue: string, actual: string, ok = expectedValue === actual) =>
    rows.push({ contract, field, expected: expectedValue, actual, ok });

  if (observed.evmSupport !== undefined) row("chain", "evm (PUSH0, MCOPY, TSTORE)", "ok", observed.evmSupport);

  for (const name of ["Multicaller", "AttestedReceiver", "Depository", "DepositAddressFactory"] as const) {
    const artifact = FERRY_ARTIFACTS[name];
    const code = observed.code[name];
    const expectedHash = runtimeCodeFingerprint(artifact.deployedBytecode, artifact.immutableReferences);
    row(name, "code", expectedHash, code === undefined || code === "0x" ? NO_CODE : runtimeCodeFingerprint(code, artifact.immutableReferences));
  }

  // The compact entry points answer their probe with their first check's error (./entryPoints.ts).
  for (const entry of observed.entryPoints ?? []) row(entry.contract, `entry ${entry.signature}`, `reverts ${entry.expected}`, entry.verdict === entry.expected ? `reverts ${entry.verdict}` : entry.verdict);

  const receiver = observed.attestedReceiver;
  if (receiver) {
    row("AttestedReceiver", "multicaller", addressText(addresses.multicaller), addressText(receiver.multicaller));
    ownershipRows(row, "AttestedReceiver", expected, receiver);
    for (const signer of expected.signers) {
      const seen = receiver.signers.find((entry) => isAddressEqual(entry.signer, signer));
      row("AttestedReceiver", `signer ${addressText(signer)}`, "allowed", seen === undefined ? "unknown" : seen.allowed ? "allowed" : "not allowed");
    }
    for (const currency of expected.currencies ?? []) {
      const seen = receiver.currencies?.find((entry) => isAddressEqual(entry.currency, currency));
      row("AttestedReceiver", `currency ${addressText(currency)}`, "listed", seen === undefined ? "unknown" : seen.allowed ? "listed" : "not listed");
    }
  }

  const factory = observed.depositAddressFactory;
  if (factory) {
    row("DepositAddressFactory", "depository", addressText(addresses.depository), addressText(factory.depository));
    row("DepositAddressFactory", "implementation", addressText(forwarderImplementation(addresses.depositAddressFactory)), addressText(factory.implementation));
  }

  const depository = observed.depository;
  if (depository) {
    const domain = depository.eip712Domain;
    row(
      "Depository",
      "eip712Domain",
      domainText(DEPOSITORY_EIP712.name, DEPOSITORY_EIP712.version, BigInt(observed.chainId), addresses.depository),
      domainText(domain.name, domain.version, domain.chainId, domain.verifyingContract),
    );
    ownershipRows(row, "Depository", expected, depository);
    row("Depository", "allocator", addressText(expected.allocator), addressText(depository.allocator));
    if (depository.pendingAllocator !== undefined) {
      // A proposed change is what users watch for: --check fails while one is pending.
      row("Depository", "pendingAllocatorChange", NONE, optionalAddressText(depository.pendingAllocator));
    }
  }
  return rows;
}

function ownershipRows(
  row: (contract: string, field: string, expected: string, actual: string, ok?: boolean) => void,
  contract: string,
  expected: ExpectedFerryState,
  observed: ObservedOwnable,
): void {
  const from = expected.handoverFrom;
  if (
    from !== undefined &&
    expected.pendingOwner === undefined &&
    !isAddressEqual(from, expected.owner) &&
    isAddressEqual(observed.owner, from) &&
    isAddressEqual(observed.pendingOwner, expected.owner)
  ) {
    row(contract, "owner", `${addressText(from)} (handover pending)`, addressText(observed.owner), true);
    row(contract, "pendingOwner", addressText(expected.owner), addressText(observed.pendingOwner));
    return;
  }
  row(contract, "owner", addressText(expected.owner), addressText(observed.owner));
  row(contract, "pendingOwner", optionalAddressText(expected.pendingOwner), optionalAddressText(observed.pendingOwner));
}

/** Lower-case hex: the form every row uses, so equal addresses compare equal as text. */
export function addressText(address: Address): string {
  return address.toLowerCase();
}

function optionalAddressText(address: Address | undefined): string {
  return address === undefined || isAddressEqual(address, zeroAddress) ? NONE : addressText(address);
}

function domainText(name: string, version: string, chainId: bigint, verifyingContract: Address): string {
  return `${name}/${version}/chain ${chainId}/${addressText(verifyingContract)}`;
}

/** The check as a fixed-width table (header + one line per row). */
export function formatCheckTable(rows: readonly CheckRow[]): string {
  const header = { contract: "contract", field: "field", expected: "expected", actual: "actual", ok: "ok" };
  const cells = [header, ...rows.map((r) => ({ ...r, ok: r.ok ? "ok" : "FAIL" }))];
  const width = (key: keyof typeof header) => Math.max(...cells.map((c) => String(c[key]).length));
  const widths = { contract: width("contract"), field: width("field"), expected: width("expected"), actual: width("actual") };
  return cells
    .map((c) =>
      [c.contract.padEnd(widths.contract), c.field.padEnd(widths.field), c.expected.padEnd(widths.expected), c.actual.padEnd(widths.actual), c.ok].join("  "),
    )
    .join("\n");
}
