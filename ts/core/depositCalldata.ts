/**
 * Deposit calldata: `encodeDeposit` builds the deposit a quote's step sends (the sender-credited forms
 * `depositNative_irOEa(id)` with the amount as value, or `depositErc20_6R0X4(token, amount, id)`), and
 * `decodeDeposit` reads any of the Depository's deposit calls — those two and the forms that name a
 * depositor (`depositNative(depositor, id)`, `depositErc20(depositor, token, amount, id)` and the
 * allowance form `depositErc20(depositor, token, id)`) and the reclaimable forms
 * (`depositNativeReclaimable_fpifa(id, reclaimAt)`, `depositErc20Reclaimable(token, amount, id, reclaimAt)`:
 * ./reclaimableDeposit.ts), which carry their `reclaimAt`. Pure.
 */
import { decodeFunctionData, encodeFunctionData, zeroAddress, type Address, type Hex } from "viem";
import { DEPOSIT_ERC20_FUNCTION, DEPOSIT_NATIVE_FUNCTION, DEPOSITORY_DEPOSIT_ABI } from "./depositoryAbi.ts";
import { InvalidInputError } from "./errors.ts";
import { DEPOSIT_NATIVE_RECLAIMABLE_FUNCTION, DEPOSITORY_RECLAIM_ABI } from "./reclaimableDeposit.ts";
import { parseAddress, parseBytes32, parseUint } from "./inputParsers.ts";

/**
 * A decoded deposit call. `depositor` is the account credited; the zero address means the transaction's
 * sender (the sender-credited forms, or a depositor argument of 0). `amount` is null for the allowance
 * form (the calldata binds none: the contract pulls the whole allowance); a native deposit's amount is
 * the transaction's value, which the calldata does not carry either, so it is left to the caller.
 */
export type DepositCall =
  | { kind: "native"; functionName: string; depositor: Address; id: Hex; reclaimAt?: bigint }
  | { kind: "erc20"; functionName: string; depositor: Address; token: Address; amount: bigint | null; id: Hex; reclaimAt?: bigint };

/** Every deposit function `decodeDeposit` reads: the plain ones and the reclaimable ones. */
const DEPOSIT_CALLS_ABI = [...DEPOSITORY_DEPOSIT_ABI, ...DEPOSITORY_RECLAIM_ABI.filter((item) => item.type === "function" && item.name !== "reclaim" && item.name !== "reclaimCommitment")];

/** The deposit transaction of `amount` of `currency` (zero address: native) under `id`, credited to its sender. */
export function encodeDeposit(params: { currency: Address; amount: bigint; id: Hex }): { data: Hex; value: bigint } {
  const currency = parseAddress(params.currency, "currency");
  const amount = parseUint(params.amount, "amount");
  const id = parseBytes32(params.id, "id");
  if (currency === zeroAddress) {
    return { data: encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: DEPOSIT_NATIVE_FUNCTION, args: [id] }), value: amount };
  }
  return { data: encodeFunctionData({ abi: DEPOSITORY_DEPOSIT_ABI, functionName: DEPOSIT_ERC20_FUNCTION, args: [currency, amount, id] }), value: 0n };
}

/** Decodes any Depository deposit call, or throws INVALID_INPUT (path `data`). */
export function decodeDeposit(data: Hex): DepositCall {
  let call;
  try {
    call = decodeFunctionData({ abi: DEPOSIT_CALLS_ABI, data });
  } catch (cause) {
    throw new InvalidInputError("not a Depository deposit call", { path: "data", cause });
  }
  const { functionName } = call;
  switch (call.functionName) {
    case DEPOSIT_NATIVE_FUNCTION:
      return { kind: "native", functionName, depositor: zeroAddress, id: call.args[0] };
    case DEPOSIT_ERC20_FUNCTION:
      return { kind: "erc20", functionName, depositor: zeroAddress, token: call.args[0], amount: call.args[1], id: call.args[2] };
    case "depositNative":
      return { kind: "native", functionName, depositor: call.args[0], id: call.args[1] };
    case "depositErc20":
      if (call.args.length === 4) {
        return { kind: "erc20", functionName, depositor: call.args[0], token: call.args[1], amount: call.args[2], id: call.args[3] };
      }
      return { kind: "erc20", functionName, depositor: call.args[0], token: call.args[1], amount: null, id: call.args[2] };
    case DEPOSIT_NATIVE_RECLAIMABLE_FUNCTION:
      return { kind: "native", functionName, depositor: zeroAddress, id: call.args[0], reclaimAt: call.args[1] };
    case "depositErc20Reclaimable":
      return { kind: "erc20", functionName, depositor: zeroAddress, token: call.args[0], amount: call.args[1], id: call.args[2], reclaimAt: call.args[3] };
  }
}
