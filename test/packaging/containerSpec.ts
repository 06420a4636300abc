/**
 * What the Dockerfile and compose.yaml say, read once for the packaging tests: the Dockerfile's
 * instructions (comments dropped, `\` continuations joined) and its runtime stage — the `npm ci` it
 * runs on the unpacked tarball, the environment it sets, ENTRYPOINT + CMD, HEALTHCHECK — and the
 * ferry service of compose.yaml. containerFiles.test.ts checks them statically; servicePackage.test.ts
 * runs the runtime stage's steps outside a container. No tests here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { REPO_ROOT } from "./packedProject.ts";

export type Instruction = { keyword: string; args: string };

/** Dockerfile instructions: comments dropped, `\` continuations joined. */
export function dockerfileInstructions(text: string): Instruction[] {
  const joined = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ");
  return joined
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(" ") };
    });
}

export const readDockerfile = (): Instruction[] => dockerfileInstructions(readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8"));

/** `KEY=value KEY2=value2` of ENV instructions, in order (a later one wins). */
export function envOf(instructions: readonly Instruction[]): Record<string, string> {
  return Object.fromEntries(
    instructions.filter((i) => i.keyword === "ENV").flatMap((i) => [...i.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)].map((m) => [m[1]!, m[2]!])),
  );
}

/** A JSON-array (exec form) argument, e.g. `["ferry"]`, `CMD ["node", "-e", "…"]`. */
export function execForm(args: string): string[] {
  const parsed: unknown = JSON.parse(args.replace(/^CMD\s+/, ""));
  if (!Array.isArray(parsed) || !parsed.every((part) => typeof part === "string")) throw new Error(`not an exec-form array: ${args}`);
  return parsed;
}

/** The instructions after the last FROM: what the image that runs is made of. */
export type RuntimeStage = {
  workdir: string;
  /** The environment the image sets (ENV), NODE_ENV included. */
  env: Record<string, string>;
  /** The `npm ci …` command of the stage's RUN, as argv (the first command of its `&&` chain). */
  install: string[];
  /** ENTRYPOINT + CMD: what `docker run` executes. */
  command: string[];
  /** The HEALTHCHECK's exec-form command. */
  healthcheck: string[];
};

export function runtimeStage(instructions: readonly Instruction[] = readDockerfile()): RuntimeStage {
  const lastFrom = instructions.map((i) => i.keyword).lastIndexOf("FROM");
  const stage = instructions.slice(lastFrom + 1);
  const runs = stage.filter((i) => i.keyword === "RUN").map((i) => i.args);
  const install = runs.map((run) => run.split("&&")[0]!.trim()).find((command) => command.startsWith("npm ci"));
  if (!install) throw new Error("the runtime stage runs no npm ci");
  const one = (keyword: string) => {
    const found = stage.filter((i) => i.keyword === keyword);
    if (found.length !== 1) throw new Error(`the runtime stage has ${found.length} ${keyword} instructions`);
    return found[0]!.args;
  };
  const healthcheck = one("HEALTHCHECK");
  return {
    workdir: one("WORKDIR"),
    env: envOf(stage),
    install: install.split(/\s+/),
    command: [...execForm(one("ENTRYPOINT")), ...execForm(one("CMD"))],
    healthcheck: execForm(healthcheck.slice(healthcheck.indexOf("CMD "))),
  };
}

export type ComposeFile = { services: Record<string, Record<string, any>>; volumes?: Record<string, unknown> };

export const readCompose = (): ComposeFile => parse(readFileSync(path.join(REPO_ROOT, "compose.yaml"), "utf8")) as ComposeFile;
