/** What `runLoad` is asked to do and what it reports (plain data: it crosses a worker boundary). */

export type LoadSpec = {
  /** Base URL of the server, e.g. http://127.0.0.1:41234 */
  url: string;
  method: "GET" | "POST";
  /** Paths (with query) sent in turn, one per request. */
  paths: string[];
  headers: Record<string, string>;
  body?: string;
  connections: number;
  durationSeconds: number;
  /** Same load, results discarded, before the measured run. */
  warmupSeconds: number;
  /** Open loop: this many requests per second in all, evenly paced (./pacedLoad.ts), instead of as fast as the connections go. */
  overallRate?: number;
};

export type LoadResult = {
  durationSeconds: number;
  completed: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors (timeouts included). */
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
};
