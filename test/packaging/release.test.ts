/**
 * `npm run release` as a maintainer runs it, into a temp dir (packedProject.ts runs it once; the
 * other packaging tests install its tarballs): versioned tarballs of both packages, a SHA256SUMS that
 * `sha256sum -c` accepts, a changelog entry under the header of (a copy of) CHANGELOG.md with the
 * commits since the last tag — and the checkout left as it was. Then the release's refusals (a version
 * already in the changelog, versions that disagree) and its pure parts. The run needs
 * FERRY_TEST_PACKAGING=1 (`npm run test:packaging`); the pure parts always run.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { agreedVersion, CHANGELOG_HEADER, insertEntry, renderEntry, ReleaseError, sha256Sums, versionsOf, withVersion } from "../../scripts/release.ts";
import { REPO_ROOT, releasedTarballs, run, tarballFiles } from "./packedProject.ts";

const ENABLED = process.env.FERRY_TEST_PACKAGING === "1";

describe("packaging: npm run release", function () {
  this.timeout(900_000);

  before(function () {
    if (!ENABLED) {
      console.log("    (skipped: run with `npm run test:packaging`, which sets FERRY_TEST_PACKAGING=1)");
      this.skip();
    }
  });

  it("writes ferry-<version>.tgz, ferry-service-<version>.tgz and a SHA256SUMS that sha256sum -c accepts, without changing the checkout", async () => {
    const release = await releasedTarballs();
    const manifest = JSON.parse(await readFile(path.join(REPO_ROOT, "packages/ferry-service/package.json"), "utf8")) as { version: string };
    expect(release.version).to.equal(manifest.version);
    expect((await readdir(release.dir)).sort()).to.deep.equal(["SHA256SUMS", `ferry-${release.version}.tgz`, `ferry-service-${release.version}.tgz`]);
    const checked = execFileSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: release.dir, encoding: "utf8" });
    expect(checked.trim().split("\n").sort()).to.deep.equal([`ferry-${release.version}.tgz: OK`, `ferry-service-${release.version}.tgz: OK`]);
    // Each tarball is its package at that version (with the service's lockfile in it).
    for (const [name, tarball] of Object.entries(release.tarballs)) {
      const inside = JSON.parse(execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" })) as { name: string; version: string };
      expect(inside).to.include({ name, version: release.version });
    }
    expect(await tarballFiles(release.tarballs["ferry-service"])).to.include("npm-shrinkwrap.json");
    expect(release.gitStatus.after).to.equal(release.gitStatus.before);
    expect(release.run.stdout).to.include(`git tag v${release.version}`);
  });

  it("adds the changelog entry under the header: the version, the sums, the subject of every commit since the last tag", async () => {
    const release = await releasedTarballs();
    const changelog = await readFile(release.changelog, "utf8");
    const original = await readFile(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");
    expect(changelog.startsWith(original.slice(0, original.search(/^## /m) >= 0 ? original.search(/^## /m) : original.length).trimEnd())).to.equal(true);
    const entry = changelog.slice(changelog.indexOf(`## ${release.version} — `));
    expect(entry).to.match(new RegExp(`^## ${release.version.replace(/\./g, "\\.")} — \\d{4}-\\d{2}-\\d{2}\\n`));
    expect(entry).to.include((await readFile(path.join(release.dir, "SHA256SUMS"), "utf8")).trimEnd());
    const git = (args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    let since: string | undefined;
    try {
      since = git(["describe", "--tags", "--abbrev=0", "--match", "v*"]);
    } catch {
      since = undefined;
    }
    const subjects = git(["log", "--no-merges", "--format=%s", since ? `${since}..HEAD` : "HEAD"]).split("\n").filter(Boolean);
    expect(entry).to.include(`(${subjects.length} commit${subjects.length === 1 ? "" : "s"}):`);
    for (const subject of subjects.slice(0, 5)) expect(entry).to.include(`- ${subject}\n`);
    // The repository's own CHANGELOG.md is untouched.
    expect(await readFile(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8")).to.equal(original);
  });

  it("refuses a version the changelog already has, before packing anything (exit 2, RELEASE_EXISTS)", async () => {
    const release = await releasedTarballs();
    const again = await run("npm", ["run", "--silent", "release", "--", "--out", path.join(release.dir, "again"), "--changelog", release.changelog], { cwd: REPO_ROOT });
    expect(again.status).to.equal(2);
    expect(again.stderr).to.match(new RegExp(`^release: RELEASE_EXISTS: .*${release.version.replace(/\./g, "\\.")}`, "m"));
    expect((await readdir(release.dir)).includes("again")).to.equal(false);
  });
});

describe("release: versions, sums and the changelog entry (pure)", () => {
  const manifest = (version: string) => `${JSON.stringify({ name: "x", version, dependencies: { a: "1.0.0" } }, null, 2)}\n`;
  const shrinkwrap = (version: string) => JSON.stringify({ name: "x", version, lockfileVersion: 3, packages: { "": { name: "x", version } } }, null, 2);

  it("agrees on one version across the manifests and the shrinkwrap's two fields, or names them all", () => {
    expect(agreedVersion(versionsOf({ "a.json": manifest("0.2.0"), "s.json": shrinkwrap("0.2.0") }))).to.equal("0.2.0");
    const mismatch = () => agreedVersion(versionsOf({ "a.json": manifest("0.2.0"), "s.json": JSON.stringify({ version: "0.2.0", packages: { "": { version: "0.1.0" } } }) }));
    expect(mismatch).to.throw(ReleaseError, /s\.json packages\[""\] 0\.1\.0/);
    expect(() => agreedVersion({ "a.json": "latest" })).to.throw(/RELEASE_VERSION_MISMATCH|not x\.y\.z/);
    expect(versionsOf({ "s.json": withVersion(shrinkwrap("0.1.0"), "1.2.3") })).to.deep.equal({ "s.json": "1.2.3", 's.json packages[""]': "1.2.3" });
    expect(JSON.parse(withVersion(manifest("0.1.0"), "1.2.3")).dependencies).to.deep.equal({ a: "1.0.0" });
  });

  it("writes sha256sum's format, sorted by file name", () => {
    const sums = sha256Sums({ "b.tgz": new TextEncoder().encode("b"), "a.tgz": new TextEncoder().encode("") });
    expect(sums).to.equal("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a.tgz\n3e23e8160039594a33894f6564e1b1348bbd7a0088d42c4acb73eeaed59c009d  b.tgz\n");
  });

  it("puts a new entry above the newest one, starts a missing changelog with the header, and refuses a version twice", () => {
    const entry = (version: string) => renderEntry({ version, date: "2026-11-27", sums: "00  ferry-0.tgz\n", since: "v0.1.0", subjects: ["one", "two"] });
    expect(entry("0.2.0")).to.equal("## 0.2.0 — 2026-11-27\n\nTarballs (SHA-256, as in `SHA256SUMS`):\n\n```\n00  ferry-0.tgz\n```\n\nChanges since v0.1.0 (2 commits):\n\n- one\n- two\n");
    const first = insertEntry(undefined, "0.1.0", entry("0.1.0"));
    expect(first.startsWith(CHANGELOG_HEADER)).to.equal(true);
    const second = insertEntry(first, "0.2.0", entry("0.2.0"));
    expect(second.indexOf("## 0.2.0")).to.be.greaterThan(CHANGELOG_HEADER.length - 1).and.lessThan(second.indexOf("## 0.1.0"));
    expect(() => insertEntry(second, "0.1.0", entry("0.1.0"))).to.throw(ReleaseError, /already has 0\.1\.0/);
  });
});
