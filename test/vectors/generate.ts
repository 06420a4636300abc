/**
 * Regenerates the shared vectors (attestations.json, order-ids.json, calldata.json) from ts/core:
 *   npx node test/vectors/generate.ts
 * The expected values are written by the code under test, so the tests never trust them alone: they
 * recompute every digest and orderId with independent encoders (test/core/vectors.test.ts) and in
 * Solidity (test/solidity/Vectors.t.sol). Deterministic: running it twice gives the same files.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { encodeAbiParameters, getAddress, keccak256, maxUint256, toHex, zeroAddress, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import {
  CALLS_FILL_TYPEHASH,
  FILL_TYPEHASH,
  GATE_TYPEHASH,
  callsFillDigest,
  fillDigest,
  gateDigest,
  normalizeFillAttestation,
  normalizeRequestAttestation,
  requestDigest,
} from "../../ts/core/attestationDigest.ts";
import { toCompactSignature } from "../../ts/core/compactSignature.ts";
import { encodeDeposit } from "../../ts/core/depositCalldata.ts";
import { encodeExecute } from "../../ts/core/executeCalldata.ts";
import { encodeFill, fitsPackedFill, packFill } from "../../ts/core/fillCalldata.ts";
import { getOrderId } from "../../ts/core/orderId.ts";
import { payoutDigest, signPayoutRequest } from "../../ts/core/payoutRequest.ts";
import { signAttestationDigest } from "../../ts/core/signAttestation.ts";

/**
 * Hardhat account #0 (mnemonic "test test ... junk", m/44'/60'/0'/0/0 → 0xf39F…2266): a well-known
 * test key, never a real one. test/core/vectors.test.ts checks it against the mnemonic.
 */
export const VECTOR_PRIVATE_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80" as const;

const MAX = maxUint256.toString();
const ZERO32 = `0x${"00".repeat(32)}` as const;
const FF32 = `0x${"ff".repeat(32)}` as const;
const id = (label: string): Hex => keccak256(toHex(label));
const pad = (address: string): Hex => `0x${"0".repeat(24)}${address.slice(2).toLowerCase()}`;

const ALICE = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const BOB = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const USDC_ETHEREUM = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const USDC_BASE = "0x833589fcd6edb6e08f4c7c31c9a8ba8a4f2b2913";
const RECEIVER = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const GATE = "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512";
const SOLANA_USER = "0x0fa5a8a4b45a4e3e7c2ec7c3d5d1b9c8a6e7f0112233445566778899aabbccdd";
const SOLANA_USDC_MINT = "0xc6fa7af3bedbad3a3d65f36aabc97431b1bbe4c2d2f6e0e47ca60203452f5d61";

type V1Input = {
  requestId: string;
  originChainId: string;
  originUser: string;
  originCurrency: string;
  originAmount: string;
  destinationChainId: string;
  destinationUser: string;
};
type V2Input = V1Input & {
  orderId: string;
  destinationCurrency: string;
  destinationAmount: string;
  deadline: string;
  receiver: string;
};

const V1_CASES: { name: string; input: V1Input }[] = [
  {
    name: "erc20 bridge ethereum to base",
    input: { requestId: id("v1/erc20"), originChainId: "1", originUser: pad(ALICE), originCurrency: pad(USDC_ETHEREUM), originAmount: "1000000", destinationChainId: "8453", destinationUser: pad(BOB) },
  },
  {
    name: "native currency is the zero word",
    input: { requestId: id("v1/native"), originChainId: "8453", originUser: pad(ALICE), originCurrency: ZERO32, originAmount: "1000000000000000000", destinationChainId: "10", destinationUser: pad(ALICE) },
  },
  {
    name: "zero amount",
    input: { requestId: id("v1/zero-amount"), originChainId: "31337", originUser: pad(ALICE), originCurrency: ZERO32, originAmount: "0", destinationChainId: "31338", destinationUser: pad(BOB) },
  },
  {
    name: "max uint256 amount",
    input: { requestId: id("v1/max-amount"), originChainId: "1", originUser: pad(BOB), originCurrency: pad(USDC_ETHEREUM), originAmount: MAX, destinationChainId: "42161", destinationUser: pad(ALICE) },
  },
  {
    name: "max uint256 chain ids",
    input: { requestId: id("v1/max-chains"), originChainId: MAX, originUser: pad(ALICE), originCurrency: pad(USDC_BASE), originAmount: "42", destinationChainId: MAX, destinationUser: pad(BOB) },
  },
  {
    name: "32-byte non-EVM destination user",
    input: { requestId: id("v1/solana-destination"), originChainId: "1", originUser: pad(ALICE), originCurrency: pad(USDC_ETHEREUM), originAmount: "2500000", destinationChainId: "792703809", destinationUser: SOLANA_USER },
  },
  {
    name: "32-byte non-EVM origin user and currency",
    input: { requestId: id("v1/solana-origin"), originChainId: "792703809", originUser: SOLANA_USER, originCurrency: SOLANA_USDC_MINT, originAmount: "7000000", destinationChainId: "8453", destinationUser: pad(BOB) },
  },
  {
    name: "all-zero words",
    input: { requestId: ZERO32, originChainId: "0", originUser: ZERO32, originCurrency: ZERO32, originAmount: "0", destinationChainId: "0", destinationUser: ZERO32 },
  },
  {
    name: "all-ones words",
    input: { requestId: FF32, originChainId: MAX, originUser: FF32, originCurrency: FF32, originAmount: MAX, destinationChainId: MAX, destinationUser: FF32 },
  },
];

const V2_BASE = (label: string): V2Input => ({
  requestId: id(`v2/${label}/request`),
  orderId: id(`v2/${label}/order`),
  originChainId: "31337",
  originUser: pad(ALICE),
  originCurrency: ZERO32,
  originAmount: "1000000000000000000",
  destinationChainId: "31338",
  destinationUser: pad(BOB),
  destinationCurrency: ZERO32,
  destinationAmount: "999000000000000000",
  deadline: "1767225600",
  receiver: RECEIVER,
});

const V2_CASES: { name: string; input: V2Input }[] = [
  { name: "native bridge on the devnet", input: V2_BASE("native") },
  {
    name: "erc20 bridge ethereum to base",
    input: { ...V2_BASE("erc20"), originChainId: "1", originCurrency: pad(USDC_ETHEREUM), originAmount: "1000000", destinationChainId: "8453", destinationCurrency: pad(USDC_BASE), destinationAmount: "998500" },
  },
  { name: "zero amounts", input: { ...V2_BASE("zero"), originAmount: "0", destinationAmount: "0" } },
  { name: "max uint256 amounts and chain ids", input: { ...V2_BASE("max"), originChainId: MAX, originAmount: MAX, destinationChainId: MAX, destinationAmount: MAX } },
  { name: "deadline zero", input: { ...V2_BASE("deadline-zero"), deadline: "0" } },
  { name: "deadline max uint256", input: { ...V2_BASE("deadline-max"), deadline: MAX } },
  {
    name: "32-byte non-EVM origin user and currency",
    input: { ...V2_BASE("solana-origin"), originChainId: "792703809", originUser: SOLANA_USER, originCurrency: SOLANA_USDC_MINT, originAmount: "7000000", destinationCurrency: pad(USDC_BASE), destinationAmount: "6990000" },
  },
  { name: "32-byte non-EVM destination user", input: { ...V2_BASE("solana-destination"), destinationChainId: "792703809", destinationUser: SOLANA_USER, destinationCurrency: SOLANA_USDC_MINT } },
  {
    name: "all-zero words and zero receiver",
    input: { requestId: ZERO32, orderId: ZERO32, originChainId: "0", originUser: ZERO32, originCurrency: ZERO32, originAmount: "0", destinationChainId: "0", destinationUser: ZERO32, destinationCurrency: ZERO32, destinationAmount: "0", deadline: "0", receiver: zeroAddress },
  },
  {
    name: "all-ones words and max receiver",
    input: { requestId: FF32, orderId: FF32, originChainId: MAX, originUser: FF32, originCurrency: FF32, originAmount: MAX, destinationChainId: MAX, destinationUser: FF32, destinationCurrency: FF32, destinationAmount: MAX, deadline: MAX, receiver: "0xFFfFfFffFFfffFFfFFfFFFFFffFFFffffFfFFFfF" },
  },
];

const SOLVER = "0x90F79bf6EB2c4f870365E785982E1f101E93b906";
const FILL_CONTRACT = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0";
const FEE_RECIPIENT = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
const OUTPUT_EXTRA = encodeAbiParameters([{ type: "address" }], [FILL_CONTRACT]);

const nativeBridge = {
  version: "v1",
  solverChainId: "ferry-origin",
  solver: SOLVER,
  salt: id("order/native-bridge"),
  inputs: [
    {
      payment: { chainId: "ferry-origin", currency: zeroAddress, amount: "1000000000000000000", weight: "1" },
      refunds: [{ chainId: "ferry-origin", recipient: ALICE, currency: zeroAddress, minimumAmount: "1000000000000000000", deadline: 1767225600, extraData: "0x" }],
    },
  ],
  output: {
    chainId: "ferry-destination",
    payments: [{ recipient: BOB, currency: zeroAddress, minimumAmount: "999000000000000000", expectedAmount: "999000000000000000" }],
    calls: [],
    deadline: 1767225600,
    extraData: OUTPUT_EXTRA,
  },
  fees: [],
};

const erc20Bridge = {
  ...nativeBridge,
  solverChainId: "base",
  salt: id("order/erc20-bridge"),
  inputs: [
    {
      payment: { chainId: "ethereum", currency: USDC_ETHEREUM, amount: "1000000", weight: "1" },
      refunds: [{ chainId: "ethereum", recipient: ALICE, currency: USDC_ETHEREUM, minimumAmount: "1000000", deadline: 4294967295, extraData: "0x" }],
    },
  ],
  output: {
    chainId: "base",
    payments: [{ recipient: BOB, currency: USDC_BASE, minimumAmount: "998000", expectedAmount: "998500" }],
    calls: [],
    deadline: 4294967295,
    extraData: OUTPUT_EXTRA,
  },
};

const withCalls = {
  ...nativeBridge,
  salt: id("order/with-calls"),
  output: {
    ...nativeBridge.output,
    calls: [
      { to: FILL_CONTRACT, data: "0xa9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c800000000000000000000000000000000000000000000000000000000000f4240", value: "0" },
      { to: BOB, data: "0x", value: "12345" },
      // An already-encoded call is hashed as the bytes it is.
      encodeAbiParameters(
        [
          { type: "tuple", components: [{ type: "address" }] },
          { type: "tuple", components: [{ type: "bytes" }] },
          { type: "tuple", components: [{ type: "uint256" }] },
        ],
        [[ALICE], ["0xdeadbeef"], [1n]],
      ),
    ],
  },
};

const withFees = {
  ...erc20Bridge,
  salt: id("order/with-fees"),
  inputs: [
    ...erc20Bridge.inputs,
    {
      payment: { chainId: "arbitrum", currency: zeroAddress, amount: "5000000000000000", weight: "2" },
      refunds: [],
    },
  ],
  fees: [
    { recipientChainId: "base", recipient: FEE_RECIPIENT, currencyChainId: "ethereum", currency: USDC_ETHEREUM, amount: "1500" },
    { recipientChainId: "ethereum", recipient: SOLVER, currencyChainId: "arbitrum", currency: zeroAddress, amount: MAX },
  ],
};

const edgeValues = {
  version: "v1",
  solverChainId: "ferry-destination",
  solver: zeroAddress,
  salt: FF32,
  inputs: [],
  output: { chainId: "ferry-destination", payments: [], calls: [], deadline: 0, extraData: "0x" },
  fees: [],
};

const ORDER_CASES = [
  { name: "native bridge", orderData: nativeBridge },
  { name: "erc20 bridge", orderData: erc20Bridge },
  { name: "with calls", orderData: withCalls },
  { name: "with fees and two inputs", orderData: withFees },
  { name: "empty arrays and edge values", orderData: edgeValues },
];

const DEPOSITORY = "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9";

const DEPOSIT_CASES: { name: string; currency: Hex; amount: string; id: Hex }[] = [
  { name: "native, 1 ETH", currency: zeroAddress, amount: "1000000000000000000", id: id("deposit/native") },
  { name: "native, max uint256", currency: zeroAddress, amount: MAX, id: FF32 },
  { name: "erc20, 1 USDC", currency: USDC_ETHEREUM, amount: "1000000", id: id("deposit/erc20") },
  { name: "erc20, zero amount and max token", currency: "0xffffffffffffffffffffffffffffffffffffffff", amount: "0", id: id("deposit/erc20-zero") },
];

const EXECUTE_CASES = [
  { name: "one native payout", chainId: 31337, request: { calls: [{ to: BOB, token: zeroAddress, amount: "50000000000000000" }], nonce: "1", expiration: "1767225600" } },
  {
    name: "two payouts, native and ERC-20",
    chainId: 8453,
    request: { calls: [{ to: SOLVER, token: USDC_BASE, amount: "998500" }, { to: ALICE, token: zeroAddress, amount: "1" }], nonce: MAX, expiration: MAX },
  },
  { name: "no payouts", chainId: 1, request: { calls: [], nonce: "0", expiration: "0" } },
];

/** The compact calldata vectors (fill, deposits, execute), from the v2 attestation vectors above. */
async function generateCalldataVectors(v2: { name: string; input: V2Input; signature: Hex }[]) {
  const account = privateKeyToAccount(VECTOR_PRIVATE_KEY);
  const fill = [];
  const noPackedForm = [];
  for (const { name, input, signature } of v2) {
    const attestation = normalizeFillAttestation(input);
    if (!fitsPackedFill(attestation)) {
      noPackedForm.push(name);
      continue;
    }
    const target = { chainId: attestation.destinationChainId, receiver: attestation.receiver };
    fill.push({
      name,
      target: { chainId: target.chainId.toString(), receiver: target.receiver },
      digest: fillDigest(attestation),
      signature,
      compactSignature: toCompactSignature(signature),
      signer: account.address,
      packed: packFill(attestation, signature),
      calldata: encodeFill({ attestation, signature, target }),
    });
  }
  const deposits = DEPOSIT_CASES.map(({ name, currency, amount, id: orderId }) => {
    const { data, value } = encodeDeposit({ currency: getAddress(currency), amount: BigInt(amount), id: orderId });
    return { name, kind: currency === zeroAddress ? "native" : "erc20", token: currency, amount, id: orderId, value: value.toString(), calldata: data };
  });
  const execute = [];
  for (const { name, chainId, request } of EXECUTE_CASES) {
    const signature = await signPayoutRequest({ account, chainId, depository: DEPOSITORY, request });
    execute.push({
      name,
      chainId,
      depository: DEPOSITORY,
      request,
      digest: payoutDigest({ chainId, depository: DEPOSITORY, request }),
      signature,
      compactSignature: toCompactSignature(signature),
      signer: account.address,
      calldata: encodeExecute({ request, signature }),
    });
  }
  return {
    description:
      "Ferry compact calldata vectors (generated by test/vectors/generate.ts): fill (the v2 vectors that have a packed form, sent to their own destination chain and receiver: `packed` is the 277-byte packed fill, `calldata` fill_7hVe's; noPackedForm names the v2 vectors whose values do not fit it), the sender-credited deposits, and the compact execute. Signatures by Hardhat account #0; compactSignature is the EIP-2098 form.",
    fill,
    noPackedForm,
    deposits,
    execute,
  };
}

export async function generateVectors(): Promise<{ attestations: unknown; orderIds: unknown; calldata: unknown }> {
  const account = privateKeyToAccount(VECTOR_PRIVATE_KEY);
  const v1 = [];
  for (const { name, input } of V1_CASES) {
    const digest = requestDigest(normalizeRequestAttestation(input));
    v1.push({ name, input, digest, signature: await signAttestationDigest(account, digest), signer: account.address });
  }
  const v2 = [];
  for (const { name, input } of V2_CASES) {
    const att = normalizeFillAttestation(input);
    const digest = fillDigest(att);
    const callsDigest = callsFillDigest(att);
    v2.push({
      name,
      input,
      digest,
      signature: await signAttestationDigest(account, digest),
      signer: account.address,
      callsDigest,
      callsSignature: await signAttestationDigest(account, callsDigest),
    });
  }
  // Gate attestations: the first vectors of each format bound to a fixed gate on their origin chain.
  const gate = [];
  for (const [format, vectors] of [["v1", v1], ["v2", v2]] as const) {
    for (const v of vectors.slice(0, 3)) {
      const chainId = BigInt(v.input.originChainId);
      const digest = gateDigest({ digest: v.digest, gate: GATE, chainId });
      gate.push({ name: `${format} ${v.name}`, format, attestationDigest: v.digest, gate: GATE, chainId: chainId.toString(), digest, signature: await signAttestationDigest(account, digest) });
    }
  }
  return {
    attestations: {
      description:
        "Ferry attestation vectors (generated by test/vectors/generate.ts). Signatures: EIP-191 personal sign over the 32 digest bytes with Hardhat account #0. v2 entries also carry the calls attestation digest (CALLS_FILL_TYPEHASH) and its signature; gate: v1/v2 digests bound to a gate and its chain (GATE_TYPEHASH).",
      fillTypehash: FILL_TYPEHASH,
      callsFillTypehash: CALLS_FILL_TYPEHASH,
      gateTypehash: GATE_TYPEHASH,
      signer: account.address,
      v1,
      v2,
      gate,
    },
    orderIds: {
      description: "Ferry protocol orderId vectors (generated by test/vectors/generate.ts): EIP-712 hashStruct(Order), no domain; every chain is evm.",
      cases: ORDER_CASES.map(({ name, orderData }) => ({ name, orderData, orderId: getOrderId(orderData) })),
    },
    calldata: await generateCalldataVectors(v2),
  };
}

if (process.argv[1] !== undefined && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const { attestations, orderIds, calldata } = await generateVectors();
  const dir = fileURLToPath(new URL(".", import.meta.url));
  writeFileSync(`${dir}attestations.json`, `${JSON.stringify(attestations, null, 2)}\n`);
  writeFileSync(`${dir}order-ids.json`, `${JSON.stringify(orderIds, null, 2)}\n`);
  writeFileSync(`${dir}calldata.json`, `${JSON.stringify(calldata, null, 2)}\n`);
  console.log(`wrote ${dir}attestations.json, ${dir}order-ids.json and ${dir}calldata.json`);
}
