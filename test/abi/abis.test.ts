import { expect } from "chai";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  PUBLIC_CONTRACTS,
  readArtifactAbi,
  renderAbiModule,
  renderIndex,
  type PublicContract,
} from "../../scripts/generate-abis.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("ts/abi", () => {
  const names = Object.keys(PUBLIC_CONTRACTS) as PublicContract[];

  for (const name of names) {
    it(`${name} ABI module matches the compiled artifact (run \`npm run abi\` if not)`, async () => {
      const committed = await readFile(path.join(root, "ts/abi", `${name}.ts`), "utf8");
      expect(committed).to.equal(renderAbiModule(name, await readArtifactAbi(name)));
    });
  }

  it("index exports every ABI", async () => {
    const committed = await readFile(path.join(root, "ts/abi/index.ts"), "utf8");
    expect(committed).to.equal(renderIndex(names));
  });
});
