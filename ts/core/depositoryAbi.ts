/**
 * The Depository's deposit functions and event, as minimal hand-written ABI fragments: what the core
 * needs to build and decode a quote's deposit step (./depositCalldata.ts). The full generated ABIs live
 * in ts/abi; a test checks these fragments against the compiled IDepository.
 */

/**
 * The sender-credited deposits (what quotes use). Their names carry a mined suffix so that their
 * selectors are 0x000000…: the dispatcher tries them first, and the selector's zero bytes cost 4 gas
 * each in calldata instead of 16 (docs/performance.md, "Gas").
 */
export const DEPOSIT_NATIVE_FUNCTION = "depositNative_irOEa";
export const DEPOSIT_ERC20_FUNCTION = "depositErc20_6R0X4";

export const DEPOSITORY_DEPOSIT_ABI = [
  {
    type: "function",
    name: DEPOSIT_NATIVE_FUNCTION,
    stateMutability: "payable",
    inputs: [{ name: "id", type: "bytes32" }],
    outputs: [],
  },
  {
    type: "function",
    name: DEPOSIT_ERC20_FUNCTION,
    stateMutability: "nonpayable",
    inputs: [
      { name: "token", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "id", type: "bytes32" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "depositNative",
    stateMutability: "payable",
    inputs: [
      { name: "depositor", type: "address" },
      { name: "id", type: "bytes32" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "depositErc20",
    stateMutability: "nonpayable",
    inputs: [
      { name: "depositor", type: "address" },
      { name: "token", type: "address" },
      { name: "amount", type: "uint256" },
      { name: "id", type: "bytes32" },
    ],
    outputs: [],
  },
  {
    type: "function",
    name: "depositErc20",
    stateMutability: "nonpayable",
    inputs: [
      { name: "depositor", type: "address" },
      { name: "token", type: "address" },
      { name: "id", type: "bytes32" },
    ],
    outputs: [],
  },
  {
    type: "event",
    name: "Deposited",
    anonymous: false,
    inputs: [
      { name: "id", type: "bytes32", indexed: true },
      { name: "depositor", type: "address", indexed: true },
      { name: "token", type: "address", indexed: false },
      { name: "amount", type: "uint256", indexed: false },
    ],
  },
] as const;
