// The service configs in examples/serve parse with the service's own parser: the two-node one the
// serve test runs, and the several-mainnet one operators start from (contracts from deployment
// records, keys from the environment only — neither file holds a key).
import { readFile } from "node:fs/promises";
import { expect } from "chai";
import { parseConfig } from "../../ts/service/config/parseConfig.ts";
import { REPO_ROOT } from "./runCli.ts";

describe("examples/serve configs", () => {
  for (const [file, minimumChains] of [["ferry.two-nodes.json", 2], ["ferry.mainnets.json", 4]] as const) {
    it(`${file} is a valid service config with ${minimumChains}+ chains and no key material`, async () => {
      const text = await readFile(`${REPO_ROOT}examples/serve/${file}`, "utf8");
      const config = parseConfig(JSON.parse(text), {}, `${REPO_ROOT}examples/serve`);
      expect(config.chains.length).to.be.at.least(minimumChains);
      expect(new Set(config.chains.map((chain) => chain.id)).size).to.equal(config.chains.length);
      expect(config.server.host).to.equal("127.0.0.1");
      expect(text).to.not.match(/0x[0-9a-fA-F]{64}/);
      expect(config.keys).to.deep.equal({});
    });
  }

  it("the mainnet example names real chains over https, with their USDC listed and priced", async () => {
    const config = parseConfig(JSON.parse(await readFile(`${REPO_ROOT}examples/serve/ferry.mainnets.json`, "utf8")), {}, "/");
    expect(config.chains.map((chain) => chain.id)).to.have.members([1, 8453, 42161, 10]);
    for (const chain of config.chains) {
      expect(chain.rpcUrl).to.match(/^https:\/\//);
      expect(chain.erc20Currencies.map((currency) => currency.symbol)).to.include("USDC");
      expect(chain.nativeCurrency.usdPrice).to.be.a("string");
    }
  });
});
