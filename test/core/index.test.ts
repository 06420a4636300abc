import { expect } from "chai";
import { readdirSync } from "node:fs";
import * as core from "../../ts/core/index.ts";

describe("ts/core barrel", () => {
  it("re-exports every export of every core module", async () => {
    const dir = new URL("../../ts/core/", import.meta.url);
    const modules = readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "index.ts");
    expect(modules.length).to.be.at.least(10);
    for (const file of modules) {
      const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(module)) expect((core as Record<string, unknown>)[name], `${file}: ${name}`).to.equal(value);
    }
  });

  it("has a same-named test for every core module", () => {
    const tests = new Set(readdirSync(new URL(".", import.meta.url)));
    for (const file of readdirSync(new URL("../../ts/core/", import.meta.url)).filter((f) => f.endsWith(".ts"))) {
      expect(tests.has(file.replace(/\.ts$/, ".test.ts")), file).to.equal(true);
    }
  });
});
