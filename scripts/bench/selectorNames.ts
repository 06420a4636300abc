/**
 * A 4-byte selector's function name, from the ABIs Ferry ships (../../ts/abi) and the ERC-20 read the
 * quote and the inventory make: how bench:intent-cost names the contract calls an intent costs
 * (`eth_call 0x70a08231` → `eth_call balanceOf`). A selector of no known function stays as it is.
 */
import { erc20Abi, toFunctionSelector, type Abi } from "viem";
import * as abis from "../../ts/abi/index.ts";

const NAMES: ReadonlyMap<string, string> = (() => {
  const names = new Map<string, string>();
  for (const abi of [erc20Abi as Abi, ...(Object.values(abis) as readonly Abi[])]) {
    for (const item of abi) if (item.type === "function" && !names.has(toFunctionSelector(item))) names.set(toFunctionSelector(item), item.name);
  }
  return names;
})();

/** `eth_call 0x70a08231` → `eth_call balanceOf`; anything else unchanged. */
export function nameSelector(call: string): string {
  const [method, selector] = call.split(" ");
  const name = selector === undefined ? undefined : NAMES.get(selector);
  return name === undefined ? call : `${method} ${name}`;
}
