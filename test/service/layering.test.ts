/**
 * The floor plan of ts/: every `.ts` file belongs to a layer, and imports only its own layer or lower
 * ones (docs/architecture.md "Repository layout and layers" has the table; a test below keeps it equal to RANKS). Every import of every file is checked — static, `export … from`,
 * `import type`, dynamic — so a wrong-way import fails here naming the file, the import and both layers.
 * Besides the order: siblings of one rank that must not know each other (FORBIDDEN), and nothing under
 * ts/ imports test/ or scripts/.
 *
 * KNOWN_VIOLATIONS lists the wrong-way imports not fixed yet; it can only shrink: an entry that no
 * longer matches an import fails the test too, so a fix has to remove it.
 *
 * No import cycles either: files that import each other, directly or around a longer circle, type-only
 * imports included, fail naming the files of the circle (KNOWN_CYCLES only shrinks, like KNOWN_VIOLATIONS).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { expect } from "chai";
import { codeOnly, importsOf } from "./moduleImports.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * Low → high. A file may import its own rank and lower ones. A layer is a folder (its files and
 * subfolders) or a single file; a file takes the most specific layer that contains it.
 */
const RANKS: readonly (readonly string[])[] = [
  // Pure: no I/O, published as `ferry`, `ferry/core` and `ferry/abi`.
  ["ts/core", "ts/abi"],
  // Built on core/abi only: the published client (`ferry/client`) and the deployment toolkit, whose
  // records the service's config reads.
  // The explorer page's browser module (ts/explorer), on core and the client's pure parts only.
  ["ts/client", "ts/deploy", "ts/explorer"],
  // The service's vocabulary: typed values and rows, the error registry.
  ["ts/service/model", "ts/service/errors", "ts/service/balances"],
  ["ts/service/config"],
  // The Logger type and the loggable form of an error, scrubbed of the config's secrets.
  ["ts/service/logging"],
  // The request lifecycle table; the loop every background worker runs (wake-ups, backoff, leased runs).
  ["ts/service/lifecycle", "ts/service/worker"],
  ["ts/service/store"],
  ["ts/service/chains"],
  // What the solver and the server share: sending transactions (nonces, fees, the gas cap, revert
  // decoding), and the price sources (configured prices, pools, feeds) that quoting and the solver read.
  ["ts/service/transactions", "ts/service/prices"],
  // Pricing, status events and the operator's admin operations (keys, webhooks, parked requests), each on the store.
  ["ts/service/quote", "ts/service/events", "ts/service/admin"],
  // The solver; POST /execute's relayer (it creates a relayed deposit's request as the indexer would); event delivery.
  ["ts/service/solver", "ts/service/relay", "ts/service/webhooks", "ts/service/websocket"],
  ["ts/service/http"],
  ["ts/service/server.ts"],
  // Entry points and fixtures built on everything below.
  ["ts/cli", "ts/devnet", "ts/testing"],
];

/** Imports forbidden although the ranks allow them: siblings kept apart, and what a package may not reach. */
const FORBIDDEN: ReadonlyArray<{ from: string; to: readonly string[]; why: string }> = [
  { from: "ts/client", to: ["ts/deploy"], why: "the client is published on core/abi only" },
  { from: "ts/deploy", to: ["ts/client", "ts/explorer"], why: "deployment does not talk to the service" },
  { from: "ts/explorer", to: ["ts/deploy"], why: "the explorer runs in a browser: core and the client's pure parts only" },
  { from: "ts/client", to: ["ts/explorer"], why: "the published client does not carry the page" },
  { from: "ts/service/transactions", to: ["ts/service/prices"], why: "sending a transaction reads no price" },
  { from: "ts/service/prices", to: ["ts/service/transactions"], why: "a price source only reads chains" },
  { from: "ts/service/quote", to: ["ts/service/events"], why: "pricing knows nothing of status events" },
  { from: "ts/service/events", to: ["ts/service/quote"], why: "events are built from outbox rows, not from pricing" },
  { from: "ts/service/solver", to: ["ts/service/webhooks", "ts/service/websocket"], why: "the solver writes the outbox; delivery reads it" },
  { from: "ts/service/webhooks", to: ["ts/service/solver", "ts/service/websocket"], why: "webhooks read the outbox only" },
  { from: "ts/service/websocket", to: ["ts/service/solver", "ts/service/webhooks"], why: "the websocket reads the outbox only" },
  { from: "ts/service/http", to: ["ts/service/solver"], why: "routes read the store; solver internals stay behind it" },
  { from: "ts/service/solver", to: ["ts/service/relay"], why: "the solver follows chains; relaying for apps is the relayer's" },
  { from: "ts/service/relay", to: ["ts/service/webhooks", "ts/service/websocket"], why: "the relayer writes requests; delivery reads the outbox" },
  {
    from: "ts/testing",
    to: RANKS.flat().filter((layer) => layer.startsWith("ts/service") || layer === "ts/cli" || layer === "ts/devnet"),
    why: "`ferry/testing` is published on core/abi/deploy only",
  },
  { from: "ts/cli", to: ["ts/devnet", "ts/testing"], why: "the CLI is an entry point of its own" },
  { from: "ts/devnet", to: ["ts/cli", "ts/testing"], why: "the devnet is an entry point of its own" },
];

/** Outside ts/, these are never imported from ts/ (tests and scripts sit on top of everything). */
const OFF_LIMITS = ["test", "scripts"];

/**
 * Wrong-way imports still to be fixed (issue 10, item 4; the request model rewrite removes them).
 * Each entry is `from → to` as repo paths. Remove an entry with its fix: an entry that matches no
 * import fails the test.
 */
const KNOWN_VIOLATIONS: ReadonlyArray<{ from: string; to: string }> = [];

/**
 * Import cycles not closed yet, each as its files sorted (as `importCycles` reports them). Remove an
 * entry with its fix: an entry that matches no cycle fails the test.
 */
const KNOWN_CYCLES: ReadonlyArray<readonly string[]> = [];

type Violation = { from: string; to: string; line: number; message: string };

function tsFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : tsFiles(path);
      return entry.name.endsWith(".ts") ? [path] : [];
    })
    .sort();
}

const RANK_OF = new Map(RANKS.flatMap((layers, rank) => layers.map((layer) => [layer, rank] as const)));

/** The most specific layer containing `path` (repo-relative), or undefined. */
function layerOf(path: string): string | undefined {
  let best: string | undefined;
  for (const layer of RANK_OF.keys()) {
    if ((path === layer || path.startsWith(`${layer}/`)) && (!best || layer.length > best.length)) best = layer;
  }
  return best;
}

/** Every layering violation among the files under `ts/` whose text `read` gives. */
function layeringViolations(files: readonly string[], read: (file: string) => string): { violations: Violation[]; unplaced: string[] } {
  const violations: Violation[] = [];
  const unplaced: string[] = [];
  for (const file of files) {
    const fromLayer = layerOf(file);
    if (!fromLayer) {
      unplaced.push(file);
      continue;
    }
    const { imports, uncheckable } = importsOf(read(file));
    for (const { line } of uncheckable) {
      violations.push({ from: file, to: "(non-literal import())", line, message: `${file}:${line} imports a computed specifier: the layering cannot be checked` });
    }
    for (const { specifier, line } of imports) {
      if (!specifier.startsWith(".")) continue; // packages and node: builtins
      const target = relative(ROOT, resolve(ROOT, dirname(file), specifier)).split("\\").join("/");
      const top = target.split("/")[0]!;
      if (OFF_LIMITS.includes(top)) {
        violations.push({ from: file, to: target, line, message: `${file}:${line} imports "${specifier}" (${target}): nothing under ts/ imports ${top}/` });
        continue;
      }
      if (!target.startsWith("ts/")) continue; // artifacts, hardhat.config.ts
      const toLayer = layerOf(target);
      if (!toLayer) {
        violations.push({ from: file, to: target, line, message: `${file}:${line} imports "${specifier}" (${target}), which is in no layer` });
        continue;
      }
      const fromRank = RANK_OF.get(fromLayer)!;
      const toRank = RANK_OF.get(toLayer)!;
      if (toRank > fromRank) {
        violations.push({
          from: file,
          to: target,
          line,
          message: `${file}:${line} imports "${specifier}": layer ${fromLayer} (rank ${fromRank}) must not import the higher layer ${toLayer} (rank ${toRank})`,
        });
        continue;
      }
      const rule = FORBIDDEN.find((r) => r.from === fromLayer && r.to.includes(toLayer));
      if (rule) {
        violations.push({ from: file, to: target, line, message: `${file}:${line} imports "${specifier}": layer ${fromLayer} must not import ${toLayer} (${rule.why})` });
      }
    }
  }
  return { violations, unplaced };
}

/** The ts/ files `file` imports (relative specifiers resolved to repo paths), every import form counted. */
function importedFiles(file: string, read: (file: string) => string): string[] {
  return importsOf(read(file))
    .imports.filter(({ specifier }) => specifier.startsWith("."))
    .map(({ specifier }) => relative(ROOT, resolve(ROOT, dirname(file), specifier)).split("\\").join("/"))
    .filter((target) => target.startsWith("ts/"));
}

/**
 * The import cycles among `files`: each strongly connected component of the import graph with more than
 * one file (or a file importing itself), as its files sorted; components sorted by their first file.
 * Tarjan's algorithm, iterative so a deep import chain cannot overflow the stack.
 */
function importCycles(files: readonly string[], read: (file: string) => string): string[][] {
  const graph = new Map(files.map((file) => [file, importedFiles(file, read)] as const));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  let next = 0;
  for (const root of files) {
    if (index.has(root)) continue;
    const frames: Array<{ file: string; edges: string[]; at: number }> = [];
    const enter = (file: string) => {
      index.set(file, next);
      low.set(file, next);
      next += 1;
      stack.push(file);
      onStack.add(file);
      frames.push({ file, edges: (graph.get(file) ?? []).filter((to) => graph.has(to)), at: 0 });
    };
    enter(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      if (frame.at < frame.edges.length) {
        const to = frame.edges[frame.at++]!;
        if (!index.has(to)) enter(to);
        else if (onStack.has(to)) low.set(frame.file, Math.min(low.get(frame.file)!, index.get(to)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.file, Math.min(low.get(parent.file)!, low.get(frame.file)!));
      if (low.get(frame.file) !== index.get(frame.file)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.file);
      if (component.length > 1 || frame.edges.includes(frame.file)) cycles.push(component.sort());
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

const sameEdge = (a: { from: string; to: string }, b: { from: string; to: string }) => a.from === b.from && a.to === b.to;

describe("layering of ts/", function () {
  const files = tsFiles("ts");
  const read = (file: string) => readFileSync(join(ROOT, file), "utf8");
  const { violations, unplaced } = layeringViolations(files, read);

  it("layering_everyFile_belongsToALayer", function () {
    expect(files.length).to.be.greaterThan(100);
    expect(unplaced, `files in no layer (add them to RANKS):\n${unplaced.join("\n")}`).to.deep.equal([]);
  });

  it("layering_everyImport_pointsDownOrSideways", function () {
    const unexpected = violations.filter((v) => !KNOWN_VIOLATIONS.some((known) => sameEdge(known, v)));
    expect(unexpected.map((v) => v.message), "wrong-way imports").to.deep.equal([]);
  });

  it("layering_knownViolations_onlyShrink", function () {
    const fixed = KNOWN_VIOLATIONS.filter((known) => !violations.some((v) => sameEdge(known, v)));
    expect(
      fixed.map((known) => `${known.from} → ${known.to}`),
      "KNOWN_VIOLATIONS entries that no longer happen: remove them from the list",
    ).to.deep.equal([]);
  });

  it("layering_theRankTable_namesExistingLayers", function () {
    // A typo in RANKS would silently place nothing; "ts/service/chains" may not exist yet (the chain clients move there).
    const missing = [...RANK_OF.keys()].filter((layer) => layer !== "ts/service/chains" && !files.some((file) => layerOf(file) === layer));
    expect(missing).to.deep.equal([]);
  });

  it("layering_theDocumentedTable_equalsTheRanks", function () {
    // docs/architecture.md shows the same ranks (a row per rank: its number, then each layer in backticks).
    const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
    const rows = [...doc.matchAll(/^\| (\d+) \| ([^|]+) \|/gm)].map((match) => ({
      rank: Number(match[1]),
      layers: [...match[2]!.matchAll(/`(ts\/[^`]+)`/g)].map((layer) => layer[1]!),
    }));
    expect(rows.map((row) => row.rank)).to.deep.equal(RANKS.map((_, rank) => rank));
    expect(rows.map((row) => row.layers)).to.deep.equal(RANKS);
  });

  it("layering_importCycles_none", function () {
    const cycles = importCycles(files, read);
    const key = (cycle: readonly string[]) => cycle.join(" ↔ ");
    const known = new Set(KNOWN_CYCLES.map(key));
    expect(cycles.map(key).filter((cycle) => !known.has(cycle)), "files that import each other (move the shared type to its owner)").to.deep.equal([]);
    const found = new Set(cycles.map(key));
    expect([...known].filter((cycle) => !found.has(cycle)), "KNOWN_CYCLES entries that no longer happen: remove them from the list").to.deep.equal([]);
  });

  it("layering_anImportCycle_isReportedWithItsFiles_typeOnlyIncluded", function () {
    const planted: Record<string, string> = {
      "ts/core/a.ts": 'import { b } from "./b.ts";',
      "ts/core/b.ts": 'import type { C } from "./c.ts";',
      "ts/core/c.ts": 'export type { A } from "./a.ts";\nimport { x } from "./x.ts";',
      "ts/core/x.ts": 'import "./self.ts";',
      "ts/core/self.ts": 'const me = await import("./self.ts");',
    };
    expect(importCycles(Object.keys(planted), (file) => planted[file]!)).to.deep.equal([
      ["ts/core/a.ts", "ts/core/b.ts", "ts/core/c.ts"],
      ["ts/core/self.ts"],
    ]);
  });

  it("layering_aWrongWayImport_isReportedWithFileImportAndBothLayers", function () {
    const file = "ts/service/store/createStore.ts";
    const planted = `${read(file)}\nimport { buildApp } from "../http/app.ts";\n`;
    const { violations: found } = layeringViolations([file], (f) => (f === file ? planted : read(f)));
    expect(found.map((v) => v.message)).to.deep.equal([
      `${file}:${planted.split("\n").length - 1} imports "../http/app.ts": layer ts/service/store (rank 6) must not import the higher layer ts/service/http (rank 11)`,
    ]);
  });

  it("layering_siblingsAndOffLimits_areReported", function () {
    const cases: Array<[string, string, string]> = [
      ["ts/service/webhooks/webhookWorker.ts", 'import { startSolver } from "../solver/startSolver.ts";', "must not import ts/service/solver"],
      ["ts/service/websocket/statusHub.ts", 'export type { X } from "../webhooks/backoff.ts";', "must not import ts/service/webhooks"],
      ["ts/client/index.ts", 'const m = await import("../deploy/create2.ts");', "must not import ts/deploy"],
      ["ts/testing/deployFerry.ts", 'import type { Store } from "../service/store/createStore.ts";', "must not import ts/service/store"],
      ["ts/core/errors.ts", 'import { x } from "../../test/vectors/vectors.ts";', "nothing under ts/ imports test/"],
      ["ts/devnet/startDevnet.ts", 'import "../../scripts/devnet.ts";', "nothing under ts/ imports scripts/"],
    ];
    for (const [file, line, expected] of cases) {
      const { violations: found } = layeringViolations([file], () => line);
      expect(found.map((v) => v.message).join("\n"), line).to.contain(expected);
    }
  });
});

describe("importsOf", function () {
  it("importsOf_findsEveryImportForm_withItsLine", function () {
    const text = [
      'import a from "./a.ts";',
      'import type { B } from "./b.ts";',
      "import {",
      "  c,",
      "  type C,",
      '} from "./c.ts";',
      'export { d } from "./d.ts";',
      'export * as e from "./e.ts";',
      'import "./f.ts";',
      'const g = await import("./g.ts");',
      'type H = typeof import("./h.ts");',
      'import x, * as y from "pkg";',
    ].join("\n");
    expect(importsOf(text).imports.map((i) => `${i.line}:${i.specifier}`)).to.deep.equal([
      "1:./a.ts",
      "2:./b.ts",
      "3:./c.ts",
      "7:./d.ts",
      "8:./e.ts",
      "9:./f.ts",
      "10:./g.ts",
      "11:./h.ts",
      "12:pkg",
    ]);
  });

  it("importsOf_ignoresImportsInCommentsStringsTemplatesAndRegexes", function () {
    const text = [
      "/**",
      ' * import { a } from "./doc.ts";',
      ' * await import("./doc2.ts")',
      " */",
      '// import b from "./line.ts";',
      "const s = 'import c from \"./string.ts\"';",
      'const t = `\nimport d from "./template.ts";\n${x}`;',
      "const r = /import e from [\"']\\.\\/regex.ts[\"']/;",
      'export const from = "./not-an-import.ts";',
      "const q = a / b; const z = c / d;",
      'import real from "./real.ts";',
    ].join("\n");
    expect(importsOf(text).imports.map((i) => `${i.line}:${i.specifier}`)).to.deep.equal(["13:./real.ts"]);
  });

  it("importsOf_reportsComputedDynamicImports", function () {
    expect(importsOf("const m = await import(name);").uncheckable).to.deep.equal([{ line: 1 }]);
    expect(importsOf("const u = import.meta.url;").uncheckable).to.deep.equal([]);
  });

  it("codeOnly_keepsLineNumbers", function () {
    const text = "a /* x\ny */ b\n`c\nd` e";
    expect(codeOnly(text).split("\n")).to.have.length(text.split("\n").length);
  });
});
