/**
 * `deployFerry(viem, options)`: a working Ferry on a Hardhat test network or fork, for integrators'
 * tests. It deploys through `deployFerryContracts` — the same code operators run with `ferry deploy`,
 * so for a given deployer and salt the contracts land where they do on every chain — plus a 6-decimal
 * test stablecoin, and hands back typed contract instances, the attestation signer and allocator
 * accounts, and helpers that produce valid attestations and payout signatures.
 *
 * It is a plain async function of a network connection's `viem`, so it composes with
 * hardhat-network-helpers' `loadFixture`:
 *
 *   const { viem, networkHelpers } = await network.create();
 *   const ferry = await networkHelpers.loadFixture(async () => deployFerry(viem));
 */
import type { GetContractReturnType, HardhatViemHelpers, PublicClient, TestClient, WalletClient } from "@nomicfoundation/hardhat-viem/types";
import type { ChainType } from "hardhat/types/network";
import { encodePacked, getContract, keccak256, numberToHex, toHex, zeroAddress, type Account, type Address, type Hex, type LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import mockStablecoinArtifact from "../../artifacts/contracts/mocks/MockStablecoin.sol/MockStablecoin.json" with { type: "json" };
import { attestedReceiverAbi } from "../abi/AttestedReceiver.ts";
import { depositoryAbi } from "../abi/Depository.ts";
import { mockStablecoinAbi } from "../abi/MockStablecoin.ts";
import { multicallerAbi } from "../abi/Multicaller.ts";
import { fillDigest, gateDigest, normalizeFillAttestation, type FillAttestation } from "../core/attestationDigest.ts";
import { encodeFill } from "../core/fillCalldata.ts";
import { signAttestationDigest } from "../core/signAttestation.ts";
import { signPayoutRequest } from "../core/payoutRequest.ts";
import { deployFerryContracts, predictFerryAddresses } from "../deploy/ferryDeployment.ts";
import type { FerryAddresses } from "../deploy/ferryPlan.ts";
import { DEFAULT_FERRY_SALT } from "../deploy/ferryPlan.ts";

export type DeployFerryOptions = {
  /** Signs fill attestations; allowed on the AttestedReceiver. Default: a fresh random account. */
  signer?: LocalAccount;
  /** Signs Depository payouts (`execute`). Default: a fresh random account. */
  allocator?: LocalAccount;
  /**
   * Final owner of the contracts. Default: the deployer (the connection's first account), which
   * keeps the fixture able to change signers and the allow-list. Another address gets the
   * two-step hand-over and must call `acceptOwnership()` on each contract.
   */
  owner?: Address;
  /** CREATE2 salt (different salt, different addresses). Default: the operators' salt. */
  salt?: Hex;
  /** Sends the deployment transactions. Default: the connection's first wallet client. */
  deployer?: WalletClient;
  /** Deploy the 6-decimal MockStablecoin (open `mint`) and list it on the receiver. Default: true. */
  stablecoin?: boolean;
  /** More ERC-20 destination currencies to list on the AttestedReceiver (fills in others revert CurrencyNotAllowed). */
  currencies?: readonly Address[];
  /**
   * Recipient allow-list on the AttestedReceiver: `false` (default) leaves it off; a list switches
   * it on and allows exactly these recipients.
   */
  allowedRecipients?: false | readonly Address[];
};

/**
 * What `attest()` takes: any v2 field, as loose input (addresses or 32-byte words, bigints, numbers
 * or decimal strings). Only the recipient and the amount are required.
 */
export type FillAttestationInput = {
  destinationUser: Address | Hex;
  destinationAmount: bigint | number | string;
  requestId?: Hex;
  orderId?: Hex;
  originChainId?: bigint | number | string;
  originUser?: Address | Hex;
  originCurrency?: Address | Hex;
  originAmount?: bigint | number | string;
  destinationChainId?: bigint | number | string;
  destinationCurrency?: Address | Hex;
  deadline?: bigint | number | string;
  receiver?: Address;
};

export type SignedFillAttestation = {
  /** Normalized (users and currencies as bytes32 words): what was signed. */
  attestation: FillAttestation;
  /** The signer's 65-byte signature of `digest` (what the AttestedReceiver's `fill` takes). */
  signature: Hex;
  digest: Hex;
  /**
   * The gate attestation for an AttestationGate: the signer's signature over ts/core
   * `gateDigest(digest, gate, chainId)` — what `_consumeFill` (e.g. `GatedCheckout.pay`) takes.
   * `gateSignature(gate)` of this attestation, on this fixture's chain.
   */
  gateSignature(gate: Address): Promise<Hex>;
  /**
   * The fill's calldata for this fixture's AttestedReceiver (ts/core `encodeFill`: `fill_7hVe` and the
   * packed fill — the attestation without destinationChainId and receiver, and the EIP-2098
   * signature). Send it with `ferry.fill(signed, { account, value })`, or as a transaction's `data`.
   */
  fillData: Hex;
};

/** A payout request for `Depository.execute`, loose numbers accepted. */
export type PayoutRequestInput = {
  calls: readonly { to: Address; token: Address; amount: bigint | number | string }[];
  nonce: bigint | number | string;
  expiration: bigint | number | string;
};

/**
 * Typed contract instances (viem's `getContract` over Ferry's shipped ABIs, the same shape as
 * hardhat-viem's `getContractAt`): they need no Ferry artifact in the consumer's Hardhat project.
 */
export type FerryContracts = {
  depository: GetContractReturnType<typeof depositoryAbi>;
  attestedReceiver: GetContractReturnType<typeof attestedReceiverAbi>;
  multicaller: GetContractReturnType<typeof multicallerAbi>;
  stablecoin: GetContractReturnType<typeof mockStablecoinAbi>;
};

export type FerryFixture = {
  chainId: number;
  addresses: FerryAddresses;
  depository: FerryContracts["depository"];
  attestedReceiver: FerryContracts["attestedReceiver"];
  multicaller: FerryContracts["multicaller"];
  /** Undefined when `options.stablecoin` is false. */
  stablecoin: FerryContracts["stablecoin"] | undefined;
  signer: LocalAccount;
  allocator: LocalAccount;
  /** The wallet client that deployed (and, unless `owner` was given, owns) the contracts. */
  deployer: WalletClient;
  publicClient: PublicClient;
  /** True when Ferry was already at its addresses (a fork of a chain where it is deployed). */
  alreadyDeployed: boolean;
  /**
   * A valid v2 fill attestation signed by `signer`. Defaults: destination and origin chain = this
   * chain, receiver = the AttestedReceiver, native currency, origin user/currency/amount = the
   * destination ones, a fresh random requestId and orderId, deadline = latest block time + 1 hour.
   */
  attest(input: FillAttestationInput): Promise<SignedFillAttestation>;
  /**
   * Sends `signed.fillData` to the AttestedReceiver (from `options.account`, default the deployer, with
   * `options.value` wei: a native fill's amount) and returns the transaction hash. It is an ordinary
   * transaction: a revert rejects the promise with the receiver's custom error.
   */
  fill(signed: SignedFillAttestation, options?: { account?: Account | Address; value?: bigint }): Promise<Hex>;
  /** The allocator's EIP-712 signature of a payout request for this Depository. */
  signPayout(request: PayoutRequestInput): Promise<Hex>;
};

/** One hour, the default attestation lifetime. */
export const DEFAULT_ATTESTATION_TTL = 3600n;

let idCounter = 0n;
/** A random-looking bytes32 unique within this process (random seed, then a counter). */
const SEED = generatePrivateKey();
function freshId(): Hex {
  idCounter += 1n;
  return keccak256(`${SEED}${numberToHex(idCounter, { size: 32 }).slice(2)}` as Hex);
}

/** Deploys Ferry onto the connection's chain (or finds it there) and configures it for tests. */
export async function deployFerry<ChainTypeT extends ChainType | string>(
  viem: HardhatViemHelpers<ChainTypeT>,
  options: DeployFerryOptions = {},
): Promise<FerryFixture> {
  const publicClient = (await viem.getPublicClient()) as PublicClient;
  const testClient = await viem.getTestClient();
  const deployer = options.deployer ?? ((await viem.getWalletClients())[0] as WalletClient | undefined);
  if (deployer === undefined) throw new Error("deployFerry: the connection has no wallet client; pass options.deployer");
  const signer = options.signer ?? privateKeyToAccount(generatePrivateKey());
  // The Depository's address depends on its constructor allocator: by default a key derived from
  // (deployer, salt), so the same fixture finds its own Depository again (a fork of a chain where it
  // ran). A public test key: never fund it on a real chain.
  const allocator = options.allocator ?? privateKeyToAccount(defaultAllocatorKey(deployer.account.address, options.salt ?? DEFAULT_FERRY_SALT));
  const asOwner = ownerSender(testClient, publicClient, deployer);

  // Ferry may already be at its addresses under another owner (a fork of a chain where it was
  // deployed with this deployer and handed over): that owner, impersonated, lets in this fixture's
  // signer and allocator, so the operators' deployment below finds nothing left to do.
  // The Depository's address depends on its constructor allocator (this fixture's allocator).
  const predicted = predictFerryAddresses({ deployer: deployer.account.address, allocator: allocator.address, salt: options.salt });
  let existingOwner: Address | undefined;
  if (await hasCode(publicClient, predicted.attestedReceiver)) {
    const receiver = getContract({ address: predicted.attestedReceiver, abi: attestedReceiverAbi, client: { public: publicClient, wallet: deployer } });
    existingOwner = await receiver.read.owner();
    if (!sameAddress(existingOwner, deployer.account.address) && !(await receiver.read.isSigner([signer.address]))) {
      await asOwner(existingOwner, (account) => receiver.write.setSigner([signer.address, true], { account }));
    }
  }
  if (await hasCode(publicClient, predicted.depository)) {
    const depository = getContract({ address: predicted.depository, abi: depositoryAbi, client: { public: publicClient, wallet: deployer } });
    const owner = await depository.read.owner();
    if (!sameAddress(owner, deployer.account.address) && !sameAddress(await depository.read.allocator(), allocator.address)) {
      // An allocator change waits the Depository's delay: propose, let the fork's clock pass it, apply.
      await asOwner(owner, (account) => depository.write.proposeAllocator([allocator.address], { account }));
      const [, eta] = await depository.read.pendingAllocatorChange();
      await testClient.setNextBlockTimestamp({ timestamp: eta });
      await testClient.mine({ blocks: 1 });
      await asOwner(owner, (account) => depository.write.applyAllocator({ account }));
    }
  }

  // The operators' code path: CREATE2 proxy (installed if missing), contracts, allocator, signer.
  const deployment = await deployFerryContracts({
    publicClient: publicClient as unknown as Parameters<typeof deployFerryContracts>[0]["publicClient"],
    walletClient: deployer,
    testClient: testClient as unknown as Parameters<typeof deployFerryContracts>[0]["testClient"],
    options: {
      owner: options.owner ?? existingOwner,
      allocator: allocator.address,
      signers: [signer.address],
      salt: options.salt,
    },
  });
  const { addresses } = deployment;
  const client = { public: publicClient, wallet: deployer };
  const depository = getContract({ address: addresses.depository, abi: depositoryAbi, client });
  const attestedReceiver = getContract({ address: addresses.attestedReceiver, abi: attestedReceiverAbi, client });
  const multicaller = getContract({ address: addresses.multicaller, abi: multicallerAbi, client });

  if (options.allowedRecipients !== undefined) {
    const owner = await attestedReceiver.read.owner();
    const allowed = options.allowedRecipients;
    if ((await attestedReceiver.read.recipientAllowListEnabled()) !== (allowed !== false)) {
      await asOwner(owner, (account) => attestedReceiver.write.setRecipientAllowListEnabled([allowed !== false], { account }));
    }
    for (const recipient of allowed || []) {
      if (await attestedReceiver.read.isRecipientAllowed([recipient])) continue;
      await asOwner(owner, (account) => attestedReceiver.write.setRecipient([recipient, true], { account }));
    }
  }

  const stablecoin = options.stablecoin === false ? undefined : await deployTestStablecoin(publicClient, deployer);
  // ERC-20 fills need the currency listed on the receiver.
  for (const currency of [...(stablecoin ? [stablecoin.address] : []), ...(options.currencies ?? [])]) {
    if (await attestedReceiver.read.isCurrencyAllowed([currency])) continue;
    const owner = await attestedReceiver.read.owner();
    await asOwner(owner, (account) => attestedReceiver.write.setCurrency([currency, true], { account }));
  }

  const chainId = await publicClient.getChainId();

  async function attest(input: FillAttestationInput): Promise<SignedFillAttestation> {
    const now = (await publicClient.getBlock({ blockTag: "latest" })).timestamp;
    const destinationCurrency = input.destinationCurrency ?? zeroAddress;
    const attestation = normalizeFillAttestation({
      requestId: freshId(),
      orderId: freshId(),
      originChainId: chainId,
      originUser: input.destinationUser,
      originCurrency: destinationCurrency,
      originAmount: input.destinationAmount,
      destinationChainId: chainId,
      destinationCurrency,
      deadline: now + DEFAULT_ATTESTATION_TTL,
      receiver: addresses.attestedReceiver,
      ...stripUndefined(input),
    });
    const digest = fillDigest(attestation);
    const signature = await signAttestationDigest(signer, digest);
    // The attestation may name another chain or receiver on purpose (a test of that failure): encode
    // it for its own target, so the bytes are what a filler would send there.
    const fillData = encodeFill({ attestation, signature, target: { chainId: attestation.destinationChainId, receiver: attestation.receiver } });
    const gateSignature = (gate: Address) => signAttestationDigest(signer, gateDigest({ digest, gate, chainId: BigInt(chainId) }));
    return { attestation, signature, digest, fillData, gateSignature };
  }

  const sender: WalletClient = deployer;
  async function fill(signed: SignedFillAttestation, options: { account?: Account | Address; value?: bigint } = {}): Promise<Hex> {
    return sender.sendTransaction({
      to: addresses.attestedReceiver,
      data: signed.fillData,
      value: options.value ?? 0n,
      account: options.account ?? sender.account,
      chain: sender.chain,
    });
  }

  async function signPayout(request: PayoutRequestInput): Promise<Hex> {
    return signPayoutRequest({ account: allocator, chainId, depository: addresses.depository, request });
  }

  return {
    chainId,
    addresses,
    depository,
    attestedReceiver,
    multicaller,
    stablecoin,
    signer,
    allocator,
    deployer,
    publicClient,
    alreadyDeployed: deployment.alreadyDeployed,
    attest,
    fill,
    signPayout,
  };
}

/** A fresh 6-decimal MockStablecoin (open `mint`) from the shipped artifact. */
async function deployTestStablecoin(publicClient: PublicClient, deployer: WalletClient): Promise<FerryContracts["stablecoin"]> {
  const hash = await deployer.deployContract({
    abi: mockStablecoinAbi,
    bytecode: mockStablecoinArtifact.bytecode as Hex,
    args: ["Ferry Test USD", "fUSD"],
    account: deployer.account,
    chain: deployer.chain,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deployFerry: stablecoin deployment ${hash} failed`);
  return getContract({ address: receipt.contractAddress, abi: mockStablecoinAbi, client: { public: publicClient, wallet: deployer } });
}

/**
 * Sends an owner-only transaction from `owner`: through the deployer when it is the owner, otherwise
 * as an impersonated account (simulated networks and forks only), funded for gas when it has nothing.
 */
function ownerSender(testClient: TestClient, publicClient: PublicClient, deployer: WalletClient) {
  return async (owner: Address, send: (account: Account | Address) => Promise<Hex>): Promise<void> => {
    const isDeployer = sameAddress(owner, deployer.account.address);
    if (!isDeployer) {
      await testClient.impersonateAccount({ address: owner });
      if ((await publicClient.getBalance({ address: owner })) < 10n ** 17n) await testClient.setBalance({ address: owner, value: 10n ** 18n });
    }
    try {
      const receipt = await publicClient.waitForTransactionReceipt({ hash: await send(isDeployer ? deployer.account : owner) });
      if (receipt.status !== "success") throw new Error(`deployFerry: owner transaction ${receipt.transactionHash} reverted`);
    } finally {
      if (!isDeployer) await testClient.stopImpersonatingAccount({ address: owner });
    }
  };
}

async function hasCode(publicClient: PublicClient, address: Address): Promise<boolean> {
  const code = await publicClient.getCode({ address });
  return code !== undefined && code !== "0x";
}

function sameAddress(a: Address, b: Address): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A bytes32 id from a label (readable ids in tests: `ferryId("order-1")`). */
export function ferryId(label: string): Hex {
  return keccak256(toHex(label));
}

/** The fixture's default allocator key for `deployer` and `salt` (deterministic, public: tests only). */
export function defaultAllocatorKey(deployer: Address, salt: Hex): Hex {
  return keccak256(encodePacked(["string", "address", "bytes32"], ["ferry/testing/allocator", deployer, salt]));
}
