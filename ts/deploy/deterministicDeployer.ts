/**
 * Puts the standard deterministic-deployment proxy (0x4e59…956c) on a chain where it is missing.
 *
 * The proxy was deployed everywhere by the same presigned, keyless transaction: pre-EIP-155 (no chain
 * id), signed with r = s = 0x2222…, so its sender 0x3fab…5362 has no known key and the proxy lands at
 * the same address on every chain that accepts unprotected transactions. On a dev chain (a test
 * client is given) we fund that sender and broadcast the transaction, exactly as on a real chain;
 * if the node rejects unprotected transactions, we fall back to `hardhat_setCode`/`anvil_setCode`
 * with the proxy's exact runtime code, which makes every later CREATE2 address identical. Without a
 * test client nothing is sent: funding a keyless account on a chain that may reject the transaction
 * would burn the funds, so the operator gets the instructions instead.
 */
import { keccak256, type Address, type Hex, type PublicClient, type TestClient, type WalletClient } from "viem";
import { DeterministicDeployerMissingError, DeploymentFailedError } from "./deployErrors.ts";

/** Arachnid's deterministic-deployment proxy: the same address on every chain that has it. */
export const DETERMINISTIC_DEPLOYER: Address = "0x4e59b44847b379578588920ca78fbf26c0b4956c";

/** The keyless account that sends the presigned transaction. */
export const DETERMINISTIC_DEPLOYER_SIGNER: Address = "0x3fab184622dc19b6109349b94811493bf2a45362";

/** Gas price × gas limit of the presigned transaction (100 gwei × 100,000): what the signer needs. */
export const DETERMINISTIC_DEPLOYER_FUNDING = 10n ** 16n;

/** The presigned, keyless, pre-EIP-155 deployment transaction of the proxy. */
export const DETERMINISTIC_DEPLOYER_TRANSACTION: Hex =
  "0xf8a58085174876e800830186a08080b853604580600e600039806000f350fe7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf31ba02222222222222222222222222222222222222222222222222222222222222222a02222222222222222222222222222222222222222222222222222222222222222";

/** The proxy's runtime code (69 bytes), what the transaction above leaves at DETERMINISTIC_DEPLOYER. */
export const DETERMINISTIC_DEPLOYER_RUNTIME_CODE: Hex =
  "0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe03601600081602082378035828234f58015156039578182fd5b8082525050506014600cf3";

export type EnsureDeterministicDeployerResult = {
  /** Whether the proxy was put on the chain by this call. */
  deployed: boolean;
  /** How: the keyless transaction, or setCode when the node rejects unprotected transactions. */
  method?: "keyless-transaction" | "set-code";
  /** The keyless transaction's hash, when that is how. */
  transaction?: Hex;
};

/**
 * Makes sure the proxy is on the chain. `testClient` marks a dev chain on which the proxy may be
 * installed (its signer is funded with `setBalance`); without one a missing proxy is an error.
 * `walletClient` is accepted for symmetry with the other deploy calls; it sends nothing here.
 */
export async function ensureDeterministicDeployer(args: {
  publicClient: PublicClient;
  walletClient?: WalletClient;
  testClient?: TestClient;
}): Promise<EnsureDeterministicDeployerResult> {
  const { publicClient, testClient } = args;
  const code = await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER });
  if (code !== undefined && code !== "0x") {
    if (keccak256(code) !== keccak256(DETERMINISTIC_DEPLOYER_RUNTIME_CODE)) {
      throw new DeploymentFailedError("deterministic deployer", `unexpected code at ${DETERMINISTIC_DEPLOYER}`);
    }
    return { deployed: false };
  }
  const chainId = await publicClient.getChainId();
  if (testClient === undefined) {
    throw new DeterministicDeployerMissingError(
      chainId,
      `send ${DETERMINISTIC_DEPLOYER_FUNDING} wei (0.01 ETH) to ${DETERMINISTIC_DEPLOYER_SIGNER}, then broadcast the presigned transaction ${DETERMINISTIC_DEPLOYER_TRANSACTION} (e.g. cast publish); see ts/deploy/README.md`,
    );
  }

  const balance = await publicClient.getBalance({ address: DETERMINISTIC_DEPLOYER_SIGNER });
  if (balance < DETERMINISTIC_DEPLOYER_FUNDING) {
    await testClient.setBalance({ address: DETERMINISTIC_DEPLOYER_SIGNER, value: DETERMINISTIC_DEPLOYER_FUNDING });
  }
  let result: EnsureDeterministicDeployerResult;
  try {
    const hash = await publicClient.sendRawTransaction({ serializedTransaction: DETERMINISTIC_DEPLOYER_TRANSACTION });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new Error(`transaction ${hash} reverted`);
    result = { deployed: true, method: "keyless-transaction", transaction: hash };
  } catch {
    // The node refuses unprotected transactions (or the signer's nonce is used up on a dev chain
    // that was reset): give the address the very code the transaction would have left there.
    await testClient.setCode({ address: DETERMINISTIC_DEPLOYER, bytecode: DETERMINISTIC_DEPLOYER_RUNTIME_CODE });
    result = { deployed: true, method: "set-code" };
  }
  const installed = await publicClient.getCode({ address: DETERMINISTIC_DEPLOYER });
  if (installed === undefined || keccak256(installed) !== keccak256(DETERMINISTIC_DEPLOYER_RUNTIME_CODE)) {
    throw new DeploymentFailedError("deterministic deployer", `no proxy code at ${DETERMINISTIC_DEPLOYER} after installing it`);
  }
  return result;
}

/** The piece of an EIP-1193 provider this module needs (Hardhat's `connection.provider`, viem's transports). */
export type RequestProvider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };

/**
 * Throws DETERMINISTIC_DEPLOYER_MISSING (with what to do) unless the standard proxy is on the chain,
 * with its exact code. For paths that cannot install it themselves: the Ignition module checks this
 * before it plans a single transaction, instead of sending to an address without code.
 */
export async function requireDeterministicDeployer(provider: RequestProvider): Promise<void> {
  const chainId = Number(await provider.request({ method: "eth_chainId" }));
  const code = String(await provider.request({ method: "eth_getCode", params: [DETERMINISTIC_DEPLOYER, "latest"] }));
  if (code !== "0x" && code !== "" && keccak256(code as Hex) === keccak256(DETERMINISTIC_DEPLOYER_RUNTIME_CODE)) return;
  if (code !== "0x" && code !== "") throw new DeploymentFailedError("deterministic deployer", `unexpected code at ${DETERMINISTIC_DEPLOYER} on chain ${chainId}`);
  throw new DeterministicDeployerMissingError(
    chainId,
    `run \`npx ferry deploy --network <name>\` (or --rpc-url <url>) once, which installs it on a dev chain; on another chain send ${DETERMINISTIC_DEPLOYER_FUNDING} wei (0.01 ETH) to ${DETERMINISTIC_DEPLOYER_SIGNER}, then broadcast the presigned transaction (ts/deploy/deterministicDeployer.ts, e.g. cast publish)`,
  );
}
