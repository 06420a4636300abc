/**
 * Every document and source file in the repository stands on its own: nothing refers to the
 * workspace folder beside the repository, and no relative Markdown link leaves the repository root
 * or points at a file that is not there. Files: what git tracks plus new files not ignored. In the
 * front door (README.md and docs/*.md) every `#anchor` — in the same file or another Markdown file —
 * also names a heading that exists (GitHub's heading ids).
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

/** GitHub's id of a heading: lower case, punctuation dropped (not - or _), spaces to -, repeats numbered. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, "");
  for (const match of withoutCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
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

  it("README.md and docs/*.md: every #anchor names an existing heading", () => {
    const problems: string[] = [];
    for (const file of files.filter((f) => f === "README.md" || /^docs\/[^/]+\.md$/.test(f))) {
      for (const target of markdownLinkTargets(readFileSync(path.join(ROOT, file), "utf8"))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || !target.includes("#")) continue;
        const [relative, anchor] = target.split("#") as [string, string];
        const resolved = relative === "" ? path.join(ROOT, file) : path.resolve(ROOT, path.dirname(file), decodeURIComponent(relative));
        if (!resolved.endsWith(".md") || !existsSync(resolved)) continue; // a missing file is the test above's
        if (!headingAnchors(readFileSync(resolved, "utf8")).has(decodeURIComponent(anchor))) problems.push(`${file}: ${target} names no heading`);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it("computes GitHub's heading ids (self-test)", () => {
    expect([...headingAnchors("# Ferry\n## The `ferry` CLI\n## Data flow\n```\n# not a heading\n```\n## Data flow\n### Fail reasons (`failReason`)\n")]).to.deep.equal([
      "ferry",
      "the-ferry-cli",
      "data-flow",
      "data-flow-1",
      "fail-reasons-failreason",
    ]);
  });

  it("finds the links it checks (self-test of the link parser)", () => {
    expect(markdownLinkTargets('see [a](../x.md "t"), ![i](img/p.png) and `[no](code.md)`\n[ref]: ../../y.md\n')).to.deep.equal([
      "../x.md",
      "img/p.png",
      "../../y.md",
    ]);
  });
});
