/**
 * GET /chains: the spec's Chain record, every field present with the right type, for a config whose
 * contracts come from a deployment record written by a real deployment on an in-process chain.
 */
import { expect } from "chai";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { network } from "hardhat";
import { zeroAddress } from "viem";
import { writeDeploymentRecord, type DeploymentRecord } from "../../../ts/deploy/deploymentRecord.ts";
import { deployFerryContracts } from "../../../ts/deploy/ferryDeployment.ts";
import { loadConfig } from "../../../ts/service/config/loadConfig.ts";
import { listen, type Listening } from "./testApp.ts";
import { withCapacity, type ChainRecord } from "../../../ts/service/http/chainRecord.ts";
import { canonicalAddress, ZERO_ADDRESS } from "../../../ts/service/model/values.ts";

const SOLVER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"; // Hardhat account #1

type Kind = "string" | "number" | "boolean" | "object" | "array";
const kind = (value: unknown): Kind | "null" | "undefined" =>
  Array.isArray(value) ? "array" : value === null ? "null" : (typeof value as Kind);

/** The spec's Chain record field list (docs/api.md, GET /chains). */
const CHAIN_FIELDS: Record<string, Kind> = {
  id: "number",
  name: "string",
  displayName: "string",
  httpRpcUrl: "string",
  wsRpcUrl: "string",
  explorerUrl: "string",
  explorerName: "string",
  iconUrl: "string",
  depositEnabled: "boolean",
  tokenSupport: "string",
  disabled: "boolean",
  partialDisableLimit: "number",
  blockProductionLagging: "boolean",
  currency: "object",
  withdrawalFee: "number",
  depositFee: "number",
  surgeEnabled: "boolean",
  featuredTokens: "array",
  erc20Currencies: "array",
  solverCurrencies: "array",
  contracts: "object",
  vmType: "string",
  baseChainId: "number",
  solverAddresses: "array",
  tags: "array",
  protocol: "object",
};
const CURRENCY_FIELDS: Record<string, Kind> = { id: "string", symbol: "string", name: "string", address: "string", decimals: "number" };

function expectFields(value: unknown, fields: Record<string, Kind>, where: string): void {
  expect(kind(value), where).to.equal("object");
  for (const [field, type] of Object.entries(fields)) {
    expect(kind((value as Record<string, unknown>)[field]), `${where}.${field}`).to.equal(type);
  }
}

describe("GET /chains", function () {
  let record: DeploymentRecord;
  let server: Listening;

  before(async function () {
    const connection = await network.create("origin");
    const wallets = await connection.viem.getWalletClients();
    ({ record } = await deployFerryContracts({
      publicClient: await connection.viem.getPublicClient(),
      walletClient: wallets[0]!,
      testClient: await connection.viem.getTestClient(),
      options: { allocator: wallets[1]!.account.address, signers: [wallets[2]!.account.address] },
    }));
    await connection.close();

    const dir = await mkdtemp(join(tmpdir(), "ferry-chains-"));
    await writeDeploymentRecord(join(dir, "deployments"), record);
    await writeFile(
      join(dir, "ferry.json"),
      JSON.stringify({
        chains: [
          {
            id: 31337,
            name: "ferry-origin",
            displayName: "Ferry Origin",
            rpcUrl: "http://127.0.0.1:8545",
            wsRpcUrl: "ws://127.0.0.1:8545",
            explorerUrl: "http://127.0.0.1:4000",
            nativeCurrency: { symbol: "ETH", name: "Ether", decimals: 18 },
            erc20Currencies: [{ address: "0x5fbdb2315678afecb367f032d93f642f64180aa3", symbol: "USDC", name: "USD Coin", decimals: 6, usdPrice: "1" }],
          },
        ],
      }),
    );
    const config = await loadConfig({ env: { FERRY_CONFIG: join(dir, "ferry.json"), FERRY_SOLVER_KEY: SOLVER_KEY } });
    server = await listen({ config });
  });
  after(() => server?.close());

  it("returns the spec's Chain record, every field present with the right type", async function () {
    const response = await fetch(`${server.url}/chains`);
    expect(response.status).to.equal(200);
    const { chains } = (await response.json()) as { chains: Record<string, any>[] };
    expect(chains).to.have.length(1);
    const chain = chains[0]!;
    expectFields(chain, CHAIN_FIELDS, "chain");
    expectFields(chain.currency, { ...CURRENCY_FIELDS, supportsBridging: "boolean", strayRefundMinimum: "string" }, "currency");
    for (const [i, token] of chain.featuredTokens.entries()) {
      expectFields(token, { ...CURRENCY_FIELDS, metadata: "object" }, `featuredTokens[${i}]`);
      expect(kind(token.metadata.logoURI)).to.equal("string");
    }
    expect(chain.erc20Currencies).to.have.length(1);
    for (const [i, currency] of chain.erc20Currencies.entries()) {
      expectFields(currency, { ...CURRENCY_FIELDS, withdrawalFee: "number", depositFee: "number", surgeEnabled: "boolean", strayRefundMinimum: "string" }, `erc20Currencies[${i}]`);
    }
    for (const [i, currency] of chain.solverCurrencies.entries()) expectFields(currency, CURRENCY_FIELDS, `solverCurrencies[${i}]`);
    expectFields(
      chain.contracts,
      {
        multicall3: "string",
        multicaller: "string",
        onlyOwnerMulticaller: "string",
        serviceReceiver: "string",
        erc20Router: "string",
        approvalProxy: "string",
        v3: "object",
      },
      "contracts",
    );
    expectFields(chain.contracts.v3, { erc20Router: "string", approvalProxy: "string" }, "contracts.v3");
    expectFields(chain.protocol.v2, { chainId: "string", depository: "string" }, "protocol.v2");
    for (const address of chain.solverAddresses) expect(kind(address)).to.equal("string");
  });

  it("takes the contracts from the deployment record and the rest from the config", async function () {
    const { chains } = (await (await fetch(`${server.url}/chains`)).json()) as { chains: Record<string, any>[] };
    const chain = chains[0]!;
    expect(chain).to.include({
      id: 31337,
      name: "ferry-origin",
      displayName: "Ferry Origin",
      httpRpcUrl: "http://127.0.0.1:8545",
      wsRpcUrl: "ws://127.0.0.1:8545",
      explorerUrl: "http://127.0.0.1:4000",
      vmType: "evm",
      baseChainId: 31337,
      depositEnabled: true,
      disabled: false,
    });
    // Ferry's extension: strays below strayRefundMinimum (smallest units) are not refunded automatically —
    // no price and no value of its own for ETH here (0: every stray refunded), $1 of USDC at its price.
    expect(chain.currency).to.deep.equal({ id: "eth", symbol: "ETH", name: "Ether", address: zeroAddress, decimals: 18, supportsBridging: true, strayRefundMinimum: "0" });
    expect(chain.erc20Currencies[0]).to.include({ symbol: "USDC", decimals: 6, address: "0x5FbDB2315678afecb367f032d93F642f64180aa3", strayRefundMinimum: "1000000" });
    expect(chain.contracts).to.deep.equal({
      multicall3: "",
      multicaller: record.addresses.multicaller,
      onlyOwnerMulticaller: "",
      serviceReceiver: record.addresses.attestedReceiver,
      erc20Router: "",
      approvalProxy: "",
      v3: { erc20Router: "", approvalProxy: "" },
    });
    expect(chain.protocol).to.deep.equal({ v2: { chainId: "ferry-origin", depository: record.addresses.depository } });
    expect(chain.solverAddresses).to.deep.equal(["0x70997970C51812dc3A010C7d01b50e0d17dc79C8"]);
  });

  it("accepts the SDK's referrer parameter and rejects others with 400", async function () {
    expect((await fetch(`${server.url}/chains?referrer=relay.link`)).status).to.equal(200);
    const response = await fetch(`${server.url}/chains?includeChains=1`);
    expect(response.status).to.equal(400);
    expect(((await response.json()) as { message: string }).message).to.contain("includeChains");
  });
});

describe("withCapacity", () => {
  it("matches an inventory line (canonical) to the record's EIP-55 currency address; others keep no capacity", () => {
    const CHECKSUMMED = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
    const record = { solverCurrencies: [{ address: CHECKSUMMED }, { address: zeroAddress }, { address: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }] } as unknown as ChainRecord;
    const lines = [
      { currency: canonicalAddress(CHECKSUMMED), available: 5n },
      { currency: ZERO_ADDRESS, available: 7n },
    ];
    const capacities = withCapacity(record, lines).solverCurrencies.map((c) => (c as { capacity?: string }).capacity);
    expect(capacities).to.deep.equal(["5", "7", undefined]);
  });
});
