/**
 * One quote endpoint for every use case: quotes for a bridge, a stablecoin bridge (approve step), a
 * cross-chain swap (the pool), a same-chain swap (the fixed price), EXPECTED_OUTPUT, EXACT_OUTPUT,
 * destination calls, a gas top-up and deposit addresses (strict, open) — each answered by the devnet's service over HTTP and validated
 * (Ajv) against the 200 response schema of POST /quote/v2 in the service's own /openapi.json, with
 * `details.operation` one of the spec's values (bridge, swap).
 */
import { expect } from "chai";
import { Ajv } from "ajv";
import { encodeFunctionData, erc20Abi, parseEther, type Address } from "viem";
import type { QuoteRequest } from "../../ts/client/apiTypes.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

describe("e2e: quote responses of every use case validate against the OpenAPI schema", function () {
  this.timeout(180_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(150_000);
    devnet = await startE2eDevnet();
  });
  after(async () => devnet?.close());

  it("bridge, swaps, trade types, calls and top-up: valid Quote, operation bridge|swap", async () => {
    const document = (await (await fetch(`${devnet.file.apiUrl}/openapi.json`)).json()) as Record<string, unknown>;
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(document, "openapi.json");
    const validate = ajv.getSchema("openapi.json#/paths/~1quote~1v2/post/responses/200/content/application~1json/schema")!;
    expect(validate, "the 200 schema of POST /quote/v2").to.not.equal(undefined);
    // The schema has teeth: a body without details, or an invented operation, is refused.
    expect(validate({ steps: [], fees: {}, protocol: {} })).to.equal(false);

    const fusd = devnet.origin.file.contracts.stablecoin! as Address;
    const user = devnet.users[0]!.address;
    const base = { user, recipient: freshRecipient(), originChainId: ORIGIN, destinationChainId: DESTINATION, tradeType: "EXACT_INPUT" };
    const cases: [string, Partial<QuoteRequest>, "bridge" | "swap"][] = [
      ["native bridge", { originCurrency: NATIVE, destinationCurrency: NATIVE, amount: parseEther("1").toString() }, "bridge"],
      ["fUSD bridge (approve + deposit)", { originCurrency: fusd, destinationCurrency: fusd, amount: "25000000" }, "bridge"],
      ["same-chain transfer", { originCurrency: NATIVE, destinationCurrency: NATIVE, destinationChainId: ORIGIN, amount: parseEther("1").toString() }, "bridge"],
      ["cross-chain swap (pool)", { originCurrency: NATIVE, destinationCurrency: fusd, amount: parseEther("1").toString(), slippageTolerance: "75" }, "swap"],
      ["same-chain swap (fixed)", { originCurrency: fusd, destinationCurrency: NATIVE, destinationChainId: ORIGIN, amount: "300000000" }, "swap"],
      ["EXPECTED_OUTPUT swap", { originCurrency: NATIVE, destinationCurrency: fusd, amount: "1000000000", tradeType: "EXPECTED_OUTPUT" }, "swap"],
      ["EXACT_OUTPUT swap", { originCurrency: fusd, destinationCurrency: NATIVE, amount: parseEther("0.1").toString(), tradeType: "EXACT_OUTPUT" }, "swap"],
      [
        "bridge and call",
        {
          originCurrency: fusd,
          destinationCurrency: fusd,
          amount: "10000000",
          tradeType: "EXACT_OUTPUT",
          txs: [{ to: fusd, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [user, 1n] }), value: "0" }],
        },
        "bridge",
      ],
      ["fUSD bridge with topupGas", { originCurrency: fusd, destinationCurrency: fusd, amount: "25000000", topupGas: true }, "bridge"],
      ["strict deposit address", { originCurrency: NATIVE, destinationCurrency: NATIVE, amount: parseEther("0.1").toString(), useDepositAddress: true, strict: true }, "bridge"],
      ["open deposit address", { originCurrency: NATIVE, destinationCurrency: fusd, amount: parseEther("0.1").toString(), useDepositAddress: true }, "swap"],
      ["open deposit address (strict: false)", { originCurrency: fusd, destinationCurrency: fusd, amount: "25000000", useDepositAddress: true, strict: false }, "bridge"],
    ];
    for (const [name, overrides, operation] of cases) {
      const quote = await devnet.client.getQuote({ ...base, ...overrides } as QuoteRequest);
      const valid = validate(quote);
      expect(valid, `${name}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      expect(quote.details.operation, name).to.equal(operation);
      expect(quote.steps.at(-1)!.items[0]!.data.gas, `${name}: the deposit's gas`).to.match(/^[0-9]+$/);
      expect(validate({ ...quote, details: { ...quote.details, operation: "send" } }), `${name}: operation "send"`).to.equal(false);
      expect(quote.steps.at(-1)!.depositAddress, `${name}: steps[].depositAddress`).to.match(overrides.useDepositAddress ? /^0x[0-9a-f]{40}$/ : /^$/);
    }
  });
});
