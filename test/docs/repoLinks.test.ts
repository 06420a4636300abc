/**
 * Every document and source file in the repository stands on its own: nothing refers to the
 * workspace folder beside the repository, and no relative Markdown link leaves the repository root
 * or points at a file that is not there. Files: what git tracks plus new files not ignored.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Built from parts so that this file does not match itself. */
const OUTSIDE_FOLDER = ["..", "shared"].join("/");
const BINARY = /\.(png|jpe?g|gif|ico|tgz|gz|zip|wasm)$/i;

function repositoryFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], { cwd: ROOT, encoding: "utf8" });
  return listed
    .split("\0")
    .filter((file) => file.length > 0 && !BINARY.test(file) && file !== "package-lock.json" && existsSync(path.join(ROOT, file)));
}

/** Targets of inline links/images `[text](target)` and reference definitions `[id]: target`, outside code spans. */
function markdownLinkTargets(text: string): string[] {
  const withoutCode = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const targets: string[] = [];
  for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]!);
  for (const match of withoutCode.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(match[1]!);
  return targets;
}

describe("repository links", () => {
  const files = repositoryFiles();

  it("lists the repository's files", () => {
    expect(files).to.include.members(["README.md", "package.json", "docs/api.md"]);
  });

  it("no file refers to the folder beside the repository", () => {
    const offenders = files.filter((file) => readFileSync(path.join(ROOT, file), "utf8").includes(OUTSIDE_FOLDER));
    expect(offenders).to.deep.equal([]);
  });

  it("every relative Markdown link stays inside the repository and points at an existing file", () => {
    const problems: string[] = [];
    for (const file of files.filter((f) => f.endsWith(".md"))) {
      for (const target of markdownLinkTargets(readFileSync(path.join(ROOT, file), "utf8"))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("#")) continue; // a URL or an anchor
        const relative = decodeURIComponent(target.replace(/[#?].*$/, ""));
        const resolved = path.resolve(ROOT, path.dirname(file), relative);
        const fromRoot = path.relative(ROOT, resolved);
        if (fromRoot.startsWith("..") || path.isAbsolute(fromRoot)) problems.push(`${file}: ${target} leaves the repository`);
        else if (!existsSync(resolved)) problems.push(`${file}: ${target} does not exist`);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it("finds the links it checks (self-test of the link parser)", () => {
    expect(markdownLinkTargets('see [a](../x.md "t"), ![i](img/p.png) and `[no](code.md)`\n[ref]: ../../y.md\n')).to.deep.equal([
      "../x.md",
      "img/p.png",
      "../../y.md",
    ]);
  });
});
