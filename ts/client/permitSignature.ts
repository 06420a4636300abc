/**
 * The `signature` step of a `usePermit` quote, checked before the wallet signs anything. Pure.
 *
 * The client never signs typed data because a quote says so: it rebuilds the message it expects from
 * what the quote commits to (the orderData hashed into the orderId and its payment, `details`,
 * `expiresAt`) and from GET /chains (the origin chain's Depository), with ts/core's own typed-data
 * builders, and refuses the step unless the quote's `data.sign` says exactly that:
 *
 * - `eip2612`: domain chainId = the origin chain, verifyingContract = the origin currency; primaryType
 *   `Permit`; owner = the wallet's account, spender = the origin chain's Depository, value = the origin
 *   amount, deadline = `expiresAt`. The token's name/version and the nonce are taken from the quote: a
 *   wrong one only makes a signature the token rejects.
 * - `permit2`: domain `Permit2` at the canonical Permit2 on the origin chain; primaryType
 *   `PermitWitnessTransferFrom`; permitted = {origin currency, origin amount}, spender = the Depository,
 *   nonce = uint256(orderId), deadline = `expiresAt`, witness `FerryDeposit {orderId}` = the quote's orderId.
 *
 * The types must be exactly ts/core's (an `EIP712Domain` entry is ignored: the domain is rebuilt), and
 * `value` and `message` (when present) both equal the expected message. What the wallet then signs is the
 * rebuilt typed data, so what was checked is what is signed. The signature goes only to
 * `/execute/permits` with the step's `post.body` (kind and requestId checked).
 */
import { getAddress, isAddress, type Address, type Hex } from "viem";
import { FerryError } from "../core/errors.ts";
import { eip2612PermitTypedData, permit2DepositTypedData, permit2Nonce } from "../core/permitDeposit.ts";
import { assertQuotePayment } from "../core/verifyQuote.ts";
import type { ChainRecord, Quote, SignatureData, Step, StepItem } from "./apiTypes.ts";
import { ExecuteQuoteError, ExecuteQuoteErrorCode } from "./clientErrors.ts";

export type PermitKind = "eip2612" | "permit2";

/** The only endpoint a permit signature is posted to. */
export const PERMIT_POST_ENDPOINT = "/execute/permits";

type TypeField = { readonly name: string; readonly type: string };
type Types = Readonly<Record<string, readonly TypeField[]>>;

/** A checked signature step: what the wallet signs and where the signature goes. */
export type VerifiedPermitSignature = {
  kind: PermitKind;
  /** The origin chain (the domain's chainId). */
  chainId: number;
  /** Who must sign: the quote's `details.sender`. */
  signer: Address;
  /** Rebuilt by ts/core from the verified values (bigints): passed to `signTypedData` as is. */
  typedData: { domain: Record<string, unknown>; types: Types; primaryType: string; message: Record<string, unknown> };
  /** POST `/execute/permits?signature=…` with this body (the step's `post.body`). */
  body: Record<string, unknown>;
};

const mismatch = (field: string, message: string) =>
  new ExecuteQuoteError(ExecuteQuoteErrorCode.PERMIT_MISMATCH, `signature step: ${field} ${message}; nothing was signed`, { field });
const invalid = (message: string, cause?: unknown) =>
  new ExecuteQuoteError(ExecuteQuoteErrorCode.QUOTE_INVALID, `the quote does not verify: ${message}`, { cause });
const unsupported = (message: string) => new ExecuteQuoteError(ExecuteQuoteErrorCode.UNSUPPORTED_STEP, message);

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The item's `data` as a signature step's (`sign` + `post`), or UNSUPPORTED_STEP. */
export function signatureDataOf(step: Step, item: StepItem, path: string): SignatureData {
  const data = item.data as Partial<SignatureData>;
  if (!isObject(data) || !isObject(data.sign) || !isObject(data.post)) throw unsupported(`${path}: step ${step.id} is a signature step without data.sign and data.post`);
  if (data.sign.signatureKind !== "eip712") throw unsupported(`${path}.sign.signatureKind ${String(data.sign.signatureKind)} is not supported (only eip712)`);
  if (data.post.endpoint !== PERMIT_POST_ENDPOINT || String(data.post.method).toUpperCase() !== "POST" || !isObject(data.post.body)) {
    throw unsupported(`${path}.post must be POST ${PERMIT_POST_ENDPOINT} with a body`);
  }
  return data as SignatureData;
}

/**
 * Checks a `usePermit` quote's signature item against the quote and GET /chains (see the file header).
 * QUOTE_INVALID: the orderData does not hash to the orderId, the payment is not one of its inputs, the
 * payment chain or Depository is not GET /chains', `details.currencyIn` or `expiresAt` disagree.
 * WALLET_MISMATCH: the wallet's account is not the quote's sender. PERMIT_MISMATCH (`field` names the
 * first difference): the typed data is not the expected one. UNSUPPORTED_STEP: a malformed item.
 */
export function verifyPermitSignature(args: { quote: Quote; step: Step; item: StepItem; path: string; chains: readonly ChainRecord[]; account: string }): VerifiedPermitSignature {
  const { quote, step, item, path } = args;
  const data = signatureDataOf(step, item, path);
  const kind = data.post.body.kind;
  if (kind !== "eip2612" && kind !== "permit2") throw unsupported(`${path}.post.body.kind ${String(kind)} is not eip2612 or permit2`);
  if (typeof data.post.body.requestId !== "string" || data.post.body.requestId.toLowerCase() !== step.requestId.toLowerCase()) {
    throw mismatch("post.body.requestId", `is ${String(data.post.body.requestId)}, not the step's requestId ${step.requestId}`);
  }

  // What the quote commits to.
  let orderId: Hex;
  let payment;
  try {
    ({ orderId, payment } = assertQuotePayment(quote));
  } catch (error) {
    if (error instanceof FerryError) throw invalid(`${error.code}: ${error.message}`, error);
    throw error;
  }
  const chain = args.chains.find((c) => (c.protocol?.v2?.chainId ?? c.name) === payment.chainId);
  if (!chain) throw invalid(`the payment chain ${payment.chainId} is not one of GET /chains`);
  const depository = addressOrNull(chain.protocol?.v2?.depository);
  if (!depository) throw invalid(`GET /chains gives no Depository for chain ${chain.id}`);
  if (payment.depository.toLowerCase() !== depository.toLowerCase()) {
    throw invalid(`paymentDetails.depository ${payment.depository} is not chain ${chain.id}'s Depository ${depository}`);
  }
  const currencyIn = quote.details?.currencyIn;
  if (!sameUint(currencyIn?.amount, payment.amount) || !sameAddress(currencyIn?.currency?.address, payment.currency)) {
    throw invalid(`details.currencyIn (${String(currencyIn?.amount)} of ${String(currencyIn?.currency?.address)}) is not the payment (${payment.amount} of ${payment.currency})`);
  }
  const expiresAt = quote.expiresAt;
  if (typeof expiresAt !== "number" || !Number.isSafeInteger(expiresAt) || expiresAt <= 0) throw invalid("expiresAt is not a unix time");
  const signer = addressOrNull(quote.details?.sender);
  if (!signer) throw invalid("details.sender is not an address");
  if (signer.toLowerCase() !== args.account.toLowerCase()) {
    throw new ExecuteQuoteError(ExecuteQuoteErrorCode.WALLET_MISMATCH, `step ${step.id} must be signed by ${signer}, the wallet's account is ${args.account}`);
  }

  const { sign } = data;
  const expected =
    kind === "eip2612"
      ? eip2612PermitTypedData(
          {
            name: stringField(sign.domain, "name", `${path}.sign.domain`),
            version: stringField(sign.domain, "version", `${path}.sign.domain`),
            chainId: BigInt(chain.id),
            verifyingContract: payment.currency,
          },
          { owner: getAddress(args.account), spender: depository, value: payment.amount, nonce: uintField(sign.value, "nonce", `${path}.sign.value`), deadline: BigInt(expiresAt) },
        )
      : permit2DepositTypedData({
          chainId: chain.id,
          deposit: { token: payment.currency, amount: payment.amount, depository, orderId, nonce: permit2Nonce(orderId), deadline: BigInt(expiresAt) },
        });

  if (sign.primaryType !== expected.primaryType) throw mismatch("primaryType", `is ${String(sign.primaryType)}, expected ${expected.primaryType} (${kind})`);
  compareTypes(sign.types, expected.types);
  compareDomain(sign.domain, expected.domain);
  if (sign.value === undefined && sign.message === undefined) throw unsupported(`${path}.sign has no value or message`);
  for (const name of ["value", "message"] as const) {
    if (sign[name] !== undefined) compareStruct(expected.types, expected.primaryType, expected.message, sign[name], name);
  }
  return {
    kind,
    chainId: chain.id,
    signer,
    typedData: expected as unknown as VerifiedPermitSignature["typedData"],
    body: data.post.body,
  };
}

function compareTypes(actual: unknown, expected: Types): void {
  if (!isObject(actual)) throw mismatch("types", "is not an object");
  const names = Object.keys(actual).filter((name) => name !== "EIP712Domain");
  const expectedNames = Object.keys(expected);
  for (const name of names) if (!expectedNames.includes(name)) throw mismatch(`types.${name}`, "is not a type of this permit");
  for (const name of expectedNames) {
    const fields = actual[name];
    const want = expected[name]!;
    const same =
      Array.isArray(fields) &&
      fields.length === want.length &&
      fields.every((f, i) => isObject(f) && f.name === want[i]!.name && f.type === want[i]!.type && Object.keys(f).length === 2);
    if (!same) throw mismatch(`types.${name}`, `is not ${want.map((f) => `${f.type} ${f.name}`).join(", ")}`);
  }
}

const DOMAIN_FIELD_TYPES: Record<string, string> = { name: "string", version: "string", chainId: "uint256", verifyingContract: "address" };

function compareDomain(actual: unknown, expected: Record<string, unknown>): void {
  if (!isObject(actual)) throw mismatch("domain", "is not an object");
  for (const key of Object.keys(actual)) if (!(key in expected)) throw mismatch(`domain.${key}`, "is not part of this permit's domain");
  for (const [key, want] of Object.entries(expected)) compareValue(DOMAIN_FIELD_TYPES[key]!, want, actual[key], `domain.${key}`);
}

function compareStruct(types: Types, typeName: string, expected: Record<string, unknown>, actual: unknown, path: string): void {
  if (!isObject(actual)) throw mismatch(path, "is not an object");
  const fields = types[typeName]!;
  for (const key of Object.keys(actual)) if (!fields.some((f) => f.name === key)) throw mismatch(`${path}.${key}`, `is not a field of ${typeName}`);
  for (const field of fields) {
    const fieldPath = `${path}.${field.name}`;
    if (types[field.type]) compareStruct(types, field.type, expected[field.name] as Record<string, unknown>, actual[field.name], fieldPath);
    else compareValue(field.type, expected[field.name], actual[field.name], fieldPath);
  }
}

function compareValue(type: string, expected: unknown, actual: unknown, path: string): void {
  const same =
    type === "address"
      ? sameAddress(actual, expected as string)
      : type.startsWith("uint")
        ? sameUint(actual, expected as bigint)
        : type === "bytes32"
          ? typeof actual === "string" && actual.toLowerCase() === (expected as string).toLowerCase()
          : actual === expected;
  if (!same) throw mismatch(path, `is ${JSON.stringify(actual)}, expected ${String(expected)}`);
}

function sameAddress(actual: unknown, expected: string): boolean {
  return typeof actual === "string" && isAddress(actual, { strict: false }) && actual.toLowerCase() === expected.toLowerCase();
}

function uintOrNull(value: unknown): bigint | null {
  if (typeof value === "bigint") return value >= 0n ? value : null;
  if (typeof value === "string" && /^\d{1,78}$/.test(value)) return BigInt(value);
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  return null;
}

function sameUint(actual: unknown, expected: bigint): boolean {
  return uintOrNull(actual) === expected;
}

function addressOrNull(value: unknown): Address | null {
  return typeof value === "string" && isAddress(value, { strict: false }) ? getAddress(value) : null;
}

function stringField(object: unknown, key: string, path: string): string {
  const value = isObject(object) ? object[key] : undefined;
  if (typeof value !== "string") throw unsupported(`${path}.${key} is not a string`);
  return value;
}

function uintField(object: unknown, key: string, path: string): bigint {
  const value = uintOrNull(isObject(object) ? object[key] : undefined);
  if (value === null) throw unsupported(`${path}.${key} is not an unsigned integer`);
  return value;
}
