/**
 * POST /quote/v2's input rules at the boundary (routes/quote.ts `toQuoteRequest`), over HTTP:
 * - `amount` above 2^256 − 1 is a 400 before any other work: before the solver-key check and before
 *   any chain read (so a chain that is down or slow cannot turn bad input into a 503);
 * - addresses follow EIP-55: all-lowercase and all-uppercase hex are unchecksummed and accepted; mixed
 *   case must be the checksum (else 400 INVALID_ADDRESS: most likely a typo);
 * - `user`, `recipient`, `refundTo` and app-fee recipients may not be the zero address (funds sent
 *   there are burned): 400 ZERO_ADDRESS_NOT_ALLOWED. The zero address as a currency is the native one.
 */
import { expect } from "chai";
import { network } from "hardhat";
import { getAddress, type PublicClient } from "viem";
import { chainClientsOf, type ChainClient } from "../../../ts/service/chains/chainClients.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { errorBody, fixtureConfig, listen, type Listening } from "./testApp.ts";

const SOLVER_KEY = "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6";
const ZERO = "0x0000000000000000000000000000000000000000";
const USER = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";
/** USER with one letter's case flipped: a mixed-case address whose checksum is wrong. */
const USER_BAD_CHECKSUM = "0x15d34aAf54267DB7D7c367839AAf71A00a2C6A65";
const BODY = {
  user: USER,
  originChainId: 31337,
  destinationChainId: 31338,
  originCurrency: ZERO,
  destinationCurrency: ZERO,
  amount: "1000000000000000",
  tradeType: "EXACT_INPUT",
};

const origin = await network.create("origin");
const destination = await network.create("destination");
const testClient = (id: number, client: unknown) => ({ config: { id }, publicClient: client as PublicClient }) as unknown as ChainClient;
const liveChains = chainClientsOf([testClient(31337, await origin.viem.getPublicClient()), testClient(31338, await destination.viem.getPublicClient())]);

describe("POST /quote/v2 input rules", function () {
  let store: Store;
  let live: Listening;
  /** The fixture's chains point at 127.0.0.1:1 (nothing listens): every chain read fails. */
  let down: Listening;
  /** No solver key: a valid body is 503 SOLVER_NOT_CONFIGURED. */
  let noSolver: Listening;
  const post = (server: Listening, body: Record<string, unknown>) =>
    fetch(`${server.url}/quote/v2`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...BODY, ...body }) });
  const expectError = async (response: Response, status: number, code: string, field?: string) => {
    const body = await errorBody(response);
    expect([response.status, body.errorCode], body.message).to.deep.equal([status, code]);
    if (field) expect(body.message).to.include(field);
  };

  before(async () => {
    store = await createStore();
    const config = fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 } }, { FERRY_SOLVER_KEY: SOLVER_KEY });
    live = await listen({ config, deps: { store, chainClients: liveChains } });
    down = await listen({ config, deps: { store } });
    noSolver = await listen({ config: fixtureConfig({ rateLimits: { anonymousPerMinute: 100_000 } }), deps: { store } });
  });
  after(async () => {
    await Promise.all([live?.close(), down?.close(), noSolver?.close()]);
    await store?.close();
  });

  it("refuses amount above 2^256 - 1 with 400 INVALID_REQUEST before any chain read or solver check", async () => {
    for (const amount of [(2n ** 256n).toString(), "9".repeat(78)]) {
      for (const tradeType of ["EXACT_INPUT", "EXACT_OUTPUT"]) {
        for (const server of [live, down, noSolver]) await expectError(await post(server, { amount, tradeType }), 400, "INVALID_REQUEST", "body/amount");
      }
    }
    // The largest uint256 passes the boundary (the quote then decides whether the deposit fits).
    expect((await post(down, { amount: (2n ** 256n - 1n).toString() })).status, "chains down: past the boundary").to.equal(503);
  });

  it("accepts lowercase, all-uppercase and checksummed addresses", async () => {
    const upper = `0x${USER.slice(2).toUpperCase()}`;
    for (const user of [USER.toLowerCase(), upper, getAddress(USER)]) {
      const response = await post(live, { user, recipient: user, refundTo: user });
      expect(response.status, `${user}: ${await response.clone().text()}`).to.equal(200);
      const quote = (await response.json()) as { details: { sender: string; recipient: string } };
      expect([quote.details.sender, quote.details.recipient]).to.deep.equal([USER.toLowerCase(), USER.toLowerCase()]);
    }
  });

  it("refuses a mixed-case address with a wrong EIP-55 checksum with 400 INVALID_ADDRESS naming the field", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user: USER_BAD_CHECKSUM }, "body/user"],
      [{ recipient: USER_BAD_CHECKSUM }, "body/recipient"],
      [{ refundTo: USER_BAD_CHECKSUM }, "body/refundTo"],
      [{ originCurrency: "0xaB44444444444444444444444444444444444444" }, "body/originCurrency"],
      [{ appFees: [{ recipient: USER_BAD_CHECKSUM, fee: "10" }] }, "body/appFees/0/recipient"],
    ];
    for (const [fields, field] of cases) {
      for (const server of [live, down]) await expectError(await post(server, fields), 400, "INVALID_ADDRESS", field);
    }
  });

  it("refuses the zero address as user, recipient, refundTo or app-fee recipient with 400 ZERO_ADDRESS_NOT_ALLOWED", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ user: ZERO }, "body/user"],
      [{ recipient: ZERO }, "body/recipient"],
      [{ refundTo: ZERO }, "body/refundTo"],
      [{ appFees: [{ recipient: ZERO, fee: "10" }] }, "body/appFees/0/recipient"],
    ];
    for (const [fields, field] of cases) {
      for (const server of [live, down]) await expectError(await post(server, fields), 400, "ZERO_ADDRESS_NOT_ALLOWED", field);
    }
    // The zero address as a currency is the native currency.
    expect((await post(live, { originCurrency: ZERO, destinationCurrency: ZERO })).status).to.equal(200);
  });
});
