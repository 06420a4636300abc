/**
 * Puts Multicall3 (mds1/multicall3) at its canonical address 0xcA11…CA11 on a chain where it is missing:
 * GET /chains serves that address as `contracts.multicall3`.
 *
 * Like the CREATE2 proxy (./deterministicDeployer.ts), Multicall3 was deployed everywhere by one
 * presigned, keyless, pre-EIP-155 transaction: nonce 0 of 0x05f3…63F2, gas limit 1,000,000 at 100 gwei,
 * so its sender needs 0.1 native before it is broadcast. The transaction below is the one the
 * Multicall3 repository publishes (its README, "new deployments"); test/deploy/multicall3.test.ts
 * recovers its sender from the signature and derives the canonical address from it, so a changed byte
 * cannot go unnoticed. Its hash, 0x07471adf…1d7c… on every chain, is the Base deployment the README cites.
 *
 * - On a dev chain (a test client is given) the sender is funded with `setBalance` and the transaction
 *   broadcast, exactly as on a real chain; a node that refuses unprotected transactions gets the code
 *   the transaction would have left (its init code run by an `eth_call`) with `setCode`.
 * - On another chain it is sent only when the operator asks (`ferry deploy --multicall3`): the deployer
 *   account funds the keyless sender with what it lacks of 0.1 native, then the transaction is broadcast.
 *   First it checks what would otherwise burn the funds: the sender's nonce must still be 0 and the gas
 *   price at most 100 gwei. A chain that refuses unprotected transactions, or needs more than 1,000,000
 *   gas for the deployment (Arbitrum chains do), cannot have it at the canonical address: reported, the
 *   0.1 native sits in the keyless account. Without `--multicall3` nothing is sent and the result says
 *   what to do; `contracts.multicall3` stays "" in /chains until the chain has it.
 */
import { keccak256, parseTransaction, type Address, type Hex, type PublicClient, type TestClient, type WalletClient } from "viem";
import { DeploymentFailedError } from "./deployErrors.ts";

export const MULTICALL3_ADDRESS: Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/** The keyless account that sends the presigned transaction (nonce 0). */
export const MULTICALL3_DEPLOYER: Address = "0x05f32B3cC3888453ff71B01135B34FF8e41263F2";

/** Gas limit × gas price of the presigned transaction (1,000,000 × 100 gwei): what its sender needs. */
export const MULTICALL3_FUNDING = 10n ** 17n;

/** The presigned deployment transaction, as the Multicall3 repository publishes it. */
export const MULTICALL3_TRANSACTION: Hex =
  "0xf90f538085174876e800830f42408080b90f00608060405234801561001057600080fd5b50610ee0806100206000396000f3fe6080604052600436106100f35760003560e01c80634d2301cc1161008a578063a8b0574e11610059578063a8b0574e1461025a578063bce38bd714610275578063c3077fa914610288578063ee82ac5e1461029b57600080fd5b80634d2301cc146101ec57806372425d9d1461022157806382ad56cb1461023457806386d516e81461024757600080fd5b80633408e470116100c65780633408e47014610191578063399542e9146101a45780633e64a696146101c657806342cbb15c146101d957600080fd5b80630f28c97d146100f8578063174dea711461011a578063252dba421461013a57806327e86d6e1461015b575b600080fd5b34801561010457600080fd5b50425b6040519081526020015b60405180910390f35b61012d610128366004610a85565b6102ba565b6040516101119190610bbe565b61014d610148366004610a85565b6104ef565b604051610111929190610bd8565b34801561016757600080fd5b50437fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff0140610107565b34801561019d57600080fd5b5046610107565b6101b76101b2366004610c60565b610690565b60405161011193929190610cba565b3480156101d257600080fd5b5048610107565b3480156101e557600080fd5b5043610107565b3480156101f857600080fd5b50610107610207366004610ce2565b73ffffffffffffffffffffffffffffffffffffffff163190565b34801561022d57600080fd5b5044610107565b61012d610242366004610a85565b6106ab565b34801561025357600080fd5b5045610107565b34801561026657600080fd5b50604051418152602001610111565b61012d610283366004610c60565b61085a565b6101b7610296366004610a85565b610a1a565b3480156102a757600080fd5b506101076102b6366004610d18565b4090565b60606000828067ffffffffffffffff8111156102d8576102d8610d31565b60405190808252806020026020018201604052801561031e57816020015b6040805180820190915260008152606060208201528152602001906001900390816102f65790505b5092503660005b8281101561047757600085828151811061034157610341610d60565b6020026020010151905087878381811061035d5761035d610d60565b905060200281019061036f9190610d8f565b6040810135958601959093506103886020850185610ce2565b73ffffffffffffffffffffffffffffffffffffffff16816103ac6060870187610dcd565b6040516103ba929190610e32565b60006040518083038185875af1925050503d80600081146103f7576040519150601f19603f3d011682016040523d82523d6000602084013e6103fc565b606091505b50602080850191909152901515808452908501351761046d577f08c379a000000000000000000000000000000000000000000000000000000000600052602060045260176024527f4d756c746963616c6c333a2063616c6c206661696c656400000000000000000060445260846000fd5b5050600101610325565b508234146104e6576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601a60248201527f4d756c746963616c6c333a2076616c7565206d69736d6174636800000000000060448201526064015b60405180910390fd5b50505092915050565b436060828067ffffffffffffffff81111561050c5761050c610d31565b60405190808252806020026020018201604052801561053f57816020015b606081526020019060019003908161052a5790505b5091503660005b8281101561068657600087878381811061056257610562610d60565b90506020028101906105749190610e42565b92506105836020840184610ce2565b73ffffffffffffffffffffffffffffffffffffffff166105a66020850185610dcd565b6040516105b4929190610e32565b6000604051808303816000865af19150503d80600081146105f1576040519150601f19603f3d011682016040523d82523d6000602084013e6105f6565b606091505b5086848151811061060957610609610d60565b602090810291909101015290508061067d576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f4d756c746963616c6c333a2063616c6c206661696c656400000000000000000060448201526064016104dd565b50600101610546565b5050509250929050565b43804060606106a086868661085a565b905093509350939050565b6060818067ffffffffffffffff8111156106c7576106c7610d31565b60405190808252806020026020018201604052801561070d57816020015b6040805180820190915260008152606060208201528152602001906001900390816106e55790505b5091503660005b828110156104e657600084828151811061073057610730610d60565b6020026020010151905086868381811061074c5761074c610d60565b905060200281019061075e9190610e76565b925061076d6020840184610ce2565b73ffffffffffffffffffffffffffffffffffffffff166107906040850185610dcd565b60405161079e929190610e32565b6000604051808303816000865af19150503d80600081146107db576040519150601f19603f3d011682016040523d82523d6000602084013e6107e0565b606091505b506020808401919091529015158083529084013517610851577f08c379a000000000000000000000000000000000000000000000000000000000600052602060045260176024527f4d756c746963616c6c333a2063616c6c206661696c656400000000000000000060445260646000fd5b50600101610714565b6060818067ffffffffffffffff81111561087657610876610d31565b6040519080825280602002602001820160405280156108bc57816020015b6040805180820190915260008152606060208201528152602001906001900390816108945790505b5091503660005b82811015610a105760008482815181106108df576108df610d60565b602002602001015190508686838181106108fb576108fb610d60565b905060200281019061090d9190610e42565b925061091c6020840184610ce2565b73ffffffffffffffffffffffffffffffffffffffff1661093f6020850185610dcd565b60405161094d929190610e32565b6000604051808303816000865af19150503d806000811461098a576040519150601f19603f3d011682016040523d82523d6000602084013e61098f565b606091505b506020830152151581528715610a07578051610a07576040517f08c379a000000000000000000000000000000000000000000000000000000000815260206004820152601760248201527f4d756c746963616c6c333a2063616c6c206661696c656400000000000000000060448201526064016104dd565b506001016108c3565b5050509392505050565b6000806060610a2b60018686610690565b919790965090945092505050565b60008083601f840112610a4b57600080fd5b50813567ffffffffffffffff811115610a6357600080fd5b6020830191508360208260051b8501011115610a7e57600080fd5b9250929050565b60008060208385031215610a9857600080fd5b823567ffffffffffffffff811115610aaf57600080fd5b610abb85828601610a39565b90969095509350505050565b6000815180845260005b81811015610aed57602081850181015186830182015201610ad1565b81811115610aff576000602083870101525b50601f017fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe0169290920160200192915050565b600082825180855260208086019550808260051b84010181860160005b84811015610bb1578583037fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe001895281518051151584528401516040858501819052610b9d81860183610ac7565b9a86019a9450505090830190600101610b4f565b5090979650505050505050565b602081526000610bd16020830184610b32565b9392505050565b600060408201848352602060408185015281855180845260608601915060608160051b870101935082870160005b82811015610c52577fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa0888703018452610c40868351610ac7565b95509284019290840190600101610c06565b509398975050505050505050565b600080600060408486031215610c7557600080fd5b83358015158114610c8557600080fd5b9250602084013567ffffffffffffffff811115610ca157600080fd5b610cad86828701610a39565b9497909650939450505050565b838152826020820152606060408201526000610cd96060830184610b32565b95945050505050565b600060208284031215610cf457600080fd5b813573ffffffffffffffffffffffffffffffffffffffff81168114610bd157600080fd5b600060208284031215610d2a57600080fd5b5035919050565b7f4e487b7100000000000000000000000000000000000000000000000000000000600052604160045260246000fd5b7f4e487b7100000000000000000000000000000000000000000000000000000000600052603260045260246000fd5b600082357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff81833603018112610dc357600080fd5b9190910192915050565b60008083357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffe1843603018112610e0257600080fd5b83018035915067ffffffffffffffff821115610e1d57600080fd5b602001915036819003821315610a7e57600080fd5b8183823760009101908152919050565b600082357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffc1833603018112610dc357600080fd5b600082357fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa1833603018112610dc357600080fdfea2646970667358221220bb2b5c71a328032f97c676ae39a1ec2148d3e5d6f73d95e9b17910152d61f16264736f6c634300080c00331ca0edce47092c0f398cebf3ffc267f05c8e7076e3b89445e0fe50f6332273d4569ba01b0b9d000e19b24c5869b0fc3b22b0d6fa47cd63316875cbbd577d76e6fde086";

export type EnsureMulticall3Result =
  | { status: "present" }
  | { status: "deployed"; method: "keyless-transaction"; transaction: Hex }
  | { status: "deployed"; method: "set-code" }
  /** Not on the chain and not sent: `reason` says why and what the operator can do. */
  | { status: "absent"; reason: string };

/** The creation code inside the presigned transaction. */
export function multicall3InitCode(): Hex {
  return parseTransaction(MULTICALL3_TRANSACTION).data!;
}

/** The runtime code Multicall3's creation leaves, computed by the node (an `eth_call` of the init code). */
async function expectedRuntimeCode(publicClient: PublicClient): Promise<Hex> {
  const { data } = await publicClient.call({ account: MULTICALL3_DEPLOYER, data: multicall3InitCode() });
  if (!data || data === "0x") throw new DeploymentFailedError("Multicall3", "its init code returned no runtime code");
  return data;
}

const hasCode = (code: Hex | undefined): code is Hex => code !== undefined && code !== "0x";

/**
 * Makes sure Multicall3 is at MULTICALL3_ADDRESS. `testClient`: a dev chain (funded by setBalance,
 * setCode as a fallback). `fund`: on another chain, `walletClient` funds the keyless sender and the
 * transaction is broadcast; without it nothing is sent.
 */
export async function ensureMulticall3(args: { publicClient: PublicClient; walletClient?: WalletClient; testClient?: TestClient; fund?: boolean }): Promise<EnsureMulticall3Result> {
  const { publicClient, walletClient, testClient } = args;
  const expected = await expectedRuntimeCode(publicClient);
  const code = await publicClient.getCode({ address: MULTICALL3_ADDRESS });
  if (hasCode(code)) {
    if (keccak256(code) !== keccak256(expected)) throw new DeploymentFailedError("Multicall3", `unexpected code at ${MULTICALL3_ADDRESS}`);
    return { status: "present" };
  }
  const nonce = await publicClient.getTransactionCount({ address: MULTICALL3_DEPLOYER });
  if (testClient) return installOnDevChain(publicClient, testClient, expected, nonce);
  if (nonce > 0) return { status: "absent", reason: `the keyless sender ${MULTICALL3_DEPLOYER} already used nonce 0 on this chain without creating Multicall3: it cannot be at its canonical address here` };
  if (!args.fund || !walletClient?.account) {
    return {
      status: "absent",
      reason: `Multicall3 is not on this chain: \`ferry deploy --multicall3\` funds ${MULTICALL3_DEPLOYER} with up to 0.1 native from the deployer and broadcasts the presigned transaction (ts/deploy/multicall3.ts)`,
    };
  }
  const gasPrice = await publicClient.getGasPrice();
  const presigned = parseTransaction(MULTICALL3_TRANSACTION);
  if (gasPrice > presigned.gasPrice!) return { status: "absent", reason: `the chain's gas price ${gasPrice} wei is above the presigned transaction's ${presigned.gasPrice} wei: try again when it is lower` };
  const balance = await publicClient.getBalance({ address: MULTICALL3_DEPLOYER });
  if (balance < MULTICALL3_FUNDING) {
    const hash = await walletClient.sendTransaction({ account: walletClient.account, chain: walletClient.chain, to: MULTICALL3_DEPLOYER, value: MULTICALL3_FUNDING - balance });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    if (receipt.status !== "success") throw new DeploymentFailedError("Multicall3", `funding ${MULTICALL3_DEPLOYER} reverted (${hash})`);
  }
  let transaction: Hex;
  try {
    transaction = await publicClient.sendRawTransaction({ serializedTransaction: MULTICALL3_TRANSACTION });
  } catch (error) {
    throw new DeploymentFailedError("Multicall3", `the node refused the presigned transaction (unprotected transactions not accepted?): ${(error as Error).message.split("\n")[0]}; ${MULTICALL3_DEPLOYER} keeps the funding`);
  }
  const receipt = await publicClient.waitForTransactionReceipt({ hash: transaction });
  const installed = await publicClient.getCode({ address: MULTICALL3_ADDRESS });
  if (receipt.status !== "success" || !hasCode(installed) || keccak256(installed) !== keccak256(expected)) {
    throw new DeploymentFailedError("Multicall3", `the presigned transaction ${transaction} did not leave Multicall3 at ${MULTICALL3_ADDRESS} (more than 1,000,000 gas needed on this chain?)`);
  }
  return { status: "deployed", method: "keyless-transaction", transaction };
}

async function installOnDevChain(publicClient: PublicClient, testClient: TestClient, expected: Hex, nonce: number): Promise<EnsureMulticall3Result> {
  let result: EnsureMulticall3Result;
  try {
    if (nonce > 0) throw new Error("the keyless sender's nonce is used");
    const balance = await publicClient.getBalance({ address: MULTICALL3_DEPLOYER });
    if (balance < MULTICALL3_FUNDING) await testClient.setBalance({ address: MULTICALL3_DEPLOYER, value: MULTICALL3_FUNDING });
    const transaction = await publicClient.sendRawTransaction({ serializedTransaction: MULTICALL3_TRANSACTION });
    const receipt = await publicClient.waitForTransactionReceipt({ hash: transaction });
    if (receipt.status !== "success") throw new Error(`transaction ${transaction} reverted`);
    result = { status: "deployed", method: "keyless-transaction", transaction };
  } catch {
    // The node refuses unprotected transactions (or the sender's nonce is used on a dev chain that was
    // reset): the address gets the very code the transaction would have left there.
    await testClient.setCode({ address: MULTICALL3_ADDRESS, bytecode: expected });
    result = { status: "deployed", method: "set-code" };
  }
  const installed = await publicClient.getCode({ address: MULTICALL3_ADDRESS });
  if (!hasCode(installed) || keccak256(installed) !== keccak256(expected)) throw new DeploymentFailedError("Multicall3", `no Multicall3 code at ${MULTICALL3_ADDRESS} after installing it`);
  return result;
}
