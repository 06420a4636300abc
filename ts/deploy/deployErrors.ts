/**
 * Typed errors of the deployment library. Stable codes (tests and the CLI branch on them); messages
 * never contain a private key.
 */
import { FerryError, type FerryErrorOptions } from "../core/errors.ts";

export const DeployErrorCode = {
  /** The standard CREATE2 proxy is missing and cannot be installed from here (not a dev chain). */
  DETERMINISTIC_DEPLOYER_MISSING: "DETERMINISTIC_DEPLOYER_MISSING",
  /** Code at a predicted address differs from what this build deploys there. */
  DEPLOYMENT_CONFLICT: "DEPLOYMENT_CONFLICT",
  /** A configuration change is needed but the deployer no longer owns the contract. */
  DEPLOYER_NOT_OWNER: "DEPLOYER_NOT_OWNER",
  /** A transaction of the deployment reverted or did not have the expected effect. */
  DEPLOYMENT_FAILED: "DEPLOYMENT_FAILED",
  /** A deployment record is missing or malformed. */
  DEPLOYMENT_RECORD_INVALID: "DEPLOYMENT_RECORD_INVALID",
  /** No usable deployer key (or a malformed one). */
  DEPLOYER_KEY_MISSING: "DEPLOYER_KEY_MISSING",
  /** The chain does not run an opcode this build emits (PUSH0, MCOPY, TSTORE/TLOAD). */
  UNSUPPORTED_CHAIN: "UNSUPPORTED_CHAIN",
  /** The allocator differs, and changing it now waits the Depository's delay (propose, then apply). */
  ALLOCATOR_CHANGE_DELAYED: "ALLOCATOR_CHANGE_DELAYED",
  /** The RPC URL does not answer JSON-RPC (refused, timed out, not a node). */
  RPC_UNREACHABLE: "RPC_UNREACHABLE",
  /** The node at an RPC URL serves another chain than the configuration says. */
  CHAIN_ID_MISMATCH: "CHAIN_ID_MISMATCH",
} as const;

/** The deterministic-deployment proxy is not on this chain; `instructions` says how to put it there. */
export class DeterministicDeployerMissingError extends FerryError {
  readonly chainId: number;
  constructor(chainId: number, instructions: string, options: FerryErrorOptions = {}) {
    super(
      DeployErrorCode.DETERMINISTIC_DEPLOYER_MISSING,
      `the deterministic-deployment proxy is not deployed on chain ${chainId}: ${instructions}`,
      options,
    );
    this.chainId = chainId;
  }
}

/** A predicted address holds other code (another build, another salt) or deployment left no code. */
export class DeploymentConflictError extends FerryError {
  readonly contract: string;
  constructor(contract: string, message: string, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.DEPLOYMENT_CONFLICT, `${contract}: ${message}`, options);
    this.contract = contract;
  }
}

/** The deployer would have to change `field` of `contract`, but `owner` owns it now. */
export class DeployerNotOwnerError extends FerryError {
  readonly contract: string;
  readonly field: string;
  constructor(contract: string, field: string, message: string, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.DEPLOYER_NOT_OWNER, `${contract}.${field}: ${message}`, options);
    this.contract = contract;
    this.field = field;
  }
}

/** A deployment transaction reverted, or its effect is not visible onchain afterwards. */
export class DeploymentFailedError extends FerryError {
  readonly step: string;
  constructor(step: string, message: string, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.DEPLOYMENT_FAILED, `${step}: ${message}`, options);
    this.step = step;
  }
}

/** `deployments/<chainId>.json` is missing, unreadable or not a Ferry deployment record. */
export class DeploymentRecordInvalidError extends FerryError {
  readonly path: string;
  constructor(path: string, message: string, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.DEPLOYMENT_RECORD_INVALID, `${path}: ${message}`, options);
    this.path = path;
  }
}

/** No deployer key: neither the network's configured account, $FERRY_DEPLOYER_KEY, nor an unlocked account. */
export class DeployerKeyMissingError extends FerryError {
  constructor(message: string, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.DEPLOYER_KEY_MISSING, message, options);
  }
}

/** The chain lacks an opcode of this build (evm prague: PUSH0, MCOPY, TSTORE/TLOAD); nothing was sent. */
export class UnsupportedChainError extends FerryError {
  readonly chainId: number;
  constructor(chainId: number, reason: string, options: FerryErrorOptions = {}) {
    super(
      DeployErrorCode.UNSUPPORTED_CHAIN,
      `chain ${chainId} cannot run this build (solc evm prague needs PUSH0, MCOPY and TSTORE/TLOAD): ${reason}; nothing was sent (see ts/deploy/README.md, supported chains)`,
      options,
    );
    this.chainId = chainId;
  }
}

/**
 * The Depository's allocator is already set, and a change waits its delay: the owner calls
 * `proposeAllocator(new)`, then `applyAllocator()` once `eta` has passed.
 */
export class AllocatorChangeDelayedError extends FerryError {
  constructor(message: string, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.ALLOCATOR_CHANGE_DELAYED, message, options);
  }
}

/** An RPC URL that does not answer: `where` names the flag or config field it came from. */
export class RpcUnreachableError extends FerryError {
  readonly url: string;
  constructor(where: string, url: string, reason: string, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.RPC_UNREACHABLE, `${url ? `${where} ${url}` : where} does not answer (${reason}): start the node or fix the URL`, options);
    this.url = url;
  }
}

/** The node answers with another chain id than expected. */
export class ChainIdMismatchError extends FerryError {
  constructor(where: string, url: string, expected: number, actual: number, options: FerryErrorOptions = {}) {
    super(DeployErrorCode.CHAIN_ID_MISMATCH, `${where} ${url} serves chain ${actual}, not ${expected}: fix the URL or the chain id`, options);
  }
}
