/**
 * The commands README.md and docs/*.md show work on a machine whose system Node is older than 22:
 * nothing runs a TypeScript file with a bare `node` (that is the system's Node; `npx node …` and the
 * npm scripts use the project's Node 22), every `npm run <script>` names a script of package.json and
 * every `npx ferry <command>` a command of the CLI. Static, so it covers the commands that need real
 * chains or keys too; the README's shell blocks are also run for real by readmeCommands.test.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "chai";
import { FERRY_HELP } from "../../ts/cli/runFerry.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DOCS = ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** Code in a Markdown text: fenced blocks (not ts/js/json/text ones) line by line, and inline code spans. */
export function codeOf(markdown: string): string[] {
  const code: string[] = [];
  for (const match of markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (["", "sh", "bash", "shell"].includes(match[1]!)) code.push(...match[2]!.split("\n"));
  }
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  for (const match of prose.matchAll(/`([^`\n]+)`/g)) code.push(match[1]!);
  return code;
}

/** A `node` that starts a command (after env assignments, at a line start or after ; && || | $( ) and is not npx's. */
const BARE_NODE = /(?:^|[;&|(]\s*|\$\(\s*)(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*node\s+(?!-)\S/;

describe("docs: commands run on an older system Node", () => {
  const scripts = Object.keys(JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts);
  const commands = [...FERRY_HELP.matchAll(/^ {2}([a-z-]+) /gm)].map((match) => match[1]!);

  it("reads the files and the CLI's commands", () => {
    expect(DOCS).to.include.members(["README.md", "docs/api.md", "docs/operations.md"]);
    expect(commands).to.include.members(["serve", "deploy", "devnet", "mcp", "webhooks"]);
  });

  for (const file of DOCS) {
    it(`${file}: no bare node, npm run names a script, npx ferry names a command`, () => {
      const problems: string[] = [];
      for (const line of codeOf(readFileSync(path.join(ROOT, file), "utf8"))) {
        if (BARE_NODE.test(line)) problems.push(`bare node (use npx node or an npm script): ${line}`);
        for (const match of line.matchAll(/\bnpm run ([a-z][\w:-]*)/g)) if (!scripts.includes(match[1]!)) problems.push(`no script ${match[1]}: ${line}`);
        for (const match of line.matchAll(/\bnpx ferry ([a-z][\w-]*)/g)) if (!commands.includes(match[1]!)) problems.push(`no command ferry ${match[1]}: ${line}`);
      }
      expect(problems).to.deep.equal([]);
    });
  }

  it("recognises a bare node and leaves npx node alone (self-test)", () => {
    for (const bare of ["node examples/x.ts", "PORT=3000 node x.ts &", "a && node y.ts", "echo $(node z.js)"]) expect(BARE_NODE.test(bare), bare).to.equal(true);
    for (const fine of ["npx node examples/x.ts", "PORT=3000 npx node x.ts", "npx hardhat node --port 8545", "node --version", "a node of the chain"]) expect(BARE_NODE.test(fine), fine).to.equal(false);
  });
});
