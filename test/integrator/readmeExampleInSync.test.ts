/** The complete example test in docs/integrators.md is readmeExample.test.ts, byte for byte: what runs is what it shows. */
import { expect } from "chai";
import { readFileSync } from "node:fs";

describe("docs/integrators.md: Testing your integration with Ferry", () => {
  it("shows exactly test/integrator/readmeExample.test.ts", () => {
    const readme = readFileSync(new URL("../../docs/integrators.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Testing your integration with Ferry"));
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block, "a ```ts block in the section").to.be.a("string");
    expect(block).to.equal(readFileSync(new URL("./readmeExample.test.ts", import.meta.url), "utf8"));
  });
});
