/**
 * CPU time spent by processes during a benchmark phase, read from Linux's /proc (user + system time of
 * every thread of the process, in clock ticks of 1/CLK_TCK s): what a run cost the machine, per
 * process, next to what it achieved. On a machine without /proc the meter reports nothing (null).
 *
 * `processes` reads a pid's total; `postgres` sums every process named `postgres` (the server's
 * backends, one per connection, plus its background workers) — a backend that exits between the two
 * readings is not counted, so the figure is a floor. With `postgresDatabase`, only the backends whose
 * title names that database count (`postgres: <cluster>: <user> <database> <client> …`): on a server other
 * work shares, the phase's own backends, without the server's background workers.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** User + system CPU ms of process `pid` so far, or null when it cannot be read. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may contain spaces, inside parentheses): utime is the 14th field overall, stime the 15th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU ms of every running `postgres` process so far (only `database`'s backends, when given), by pid. */
function postgresCpu(database?: string): Map<number, number> {
  const byPid = new Map<number, number>();
  if (!existsSync("/proc")) return byPid;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").trim() !== "postgres") continue;
      if (database !== undefined && readFileSync(`/proc/${entry}/cmdline`, "utf8").split(/[\s\0]+/).includes(database) === false) continue;
    } catch {
      continue;
    }
    const ms = processCpuMs(Number(entry));
    if (ms !== null) byPid.set(Number(entry), ms);
  }
  return byPid;
}

/** What a phase cost: CPU ms per labelled process, and PostgreSQL's (null: not measurable here). */
export type CpuSpent = { byProcess: Array<{ label: string; ms: number }>; postgresMs: number | null };

/** Starts measuring `processes` (label → pid) and PostgreSQL; `stop()` returns what each spent since. */
export function startCpuMeter(processes: Array<{ label: string; pid: number }>, options: { postgresDatabase?: string } = {}): { stop(): CpuSpent } {
  const before = processes.map((p) => ({ ...p, ms: processCpuMs(p.pid) }));
  const postgresBefore = postgresCpu(options.postgresDatabase);
  return {
    stop() {
      const byProcess: CpuSpent["byProcess"] = [];
      for (const p of before) {
        const now = processCpuMs(p.pid);
        if (p.ms !== null && now !== null) byProcess.push({ label: p.label, ms: now - p.ms });
      }
      const postgresAfter = postgresCpu(options.postgresDatabase);
      let postgresMs = 0;
      for (const [pid, ms] of postgresAfter) postgresMs += ms - (postgresBefore.get(pid) ?? 0);
      return { byProcess, postgresMs: postgresAfter.size === 0 ? null : postgresMs };
    },
  };
}
