/** Shared bits of the benchmark scripts: the header saying what ran where, env knobs, percentiles, formatting. */
import { availableParallelism, cpus, totalmem } from "node:os";

/** The machine line every benchmark prints first: figures are only comparable on the same kind. */
export function machineLine(): string {
  const model = cpus()[0]?.model.trim() ?? "unknown CPU";
  return `Node ${process.version} · ${availableParallelism()} CPUs (${model}) · ${Math.round(totalmem() / 2 ** 30)} GiB · ${process.platform}/${process.arch}`;
}

/** A positive integer from the environment, else `fallback`; anything else is an error naming the variable. */
export function intFromEnv(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

export function ms(value: number): string {
  return Number.isFinite(value) ? value.toFixed(value < 10 ? 2 : 1) : "–";
}

/** A plain-text table, columns padded; numbers right-aligned. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

/** Nearest-rank percentile of an ascending array (NaN when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}
