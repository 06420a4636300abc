/**
 * Where a webhook may connect: its URL's host resolved once into addresses, and those split by the
 * deny-list (`webhooks.denyNetworks`, ../../config/addressFilter.ts). Used when a webhook is set (a name
 * that resolves into a denied range is refused) and at every delivery attempt, which then connects to
 * exactly the addresses checked here (../../webhooks/postWebhook.ts pins its connection's lookup to them),
 * so DNS cannot answer one address to the check and another to the connection (rebinding).
 *
 * `localhost` and `*.localhost` are loopback whatever DNS says (RFC 6761): denied whenever loopback is.
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import type { AddressFilter } from "../../config/addressFilter.ts";

export type ResolvedAddress = { address: string; family: 4 | 6 };

/** A name → its addresses (every one, in the resolver's order). Rejects when the name does not resolve. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address, in its order. */
export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, order: "verbatim" })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

/** The URL's hostname without the brackets of an IPv6 literal. */
export function bareHost(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

/** RFC 6761: `localhost` and every name under it are the local host. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

export type WebhookDestination = {
  /** The host as the URL has it (brackets removed): what Host and TLS name. */
  host: string;
  /** Whether `host` is an IP literal (connected to as it is, no resolution). */
  literal: boolean;
  /** The addresses outside the denied ranges: the only ones a connection may go to. */
  allowed: ResolvedAddress[];
  /** The addresses (or, for a localhost name, the name) in a denied range. */
  denied: string[];
};

/**
 * Resolves `hostname` (URL form) once and splits its addresses by `denied`. An IP literal is its own
 * address; a localhost name is denied outright when loopback is, and resolved like any name otherwise.
 * A name that does not resolve rejects with the resolver's error; a resolver still busy when `signal`
 * aborts rejects with the signal's reason (a hanging DNS must not outlive an attempt's timeout).
 */
export async function resolveWebhookDestination(hostname: string, denied: AddressFilter, resolve: HostResolver = systemResolver, signal?: AbortSignal): Promise<WebhookDestination> {
  const host = bareHost(hostname);
  const family = isIP(host);
  if (family !== 0) {
    const address = { address: host, family: family as 4 | 6 };
    return denied.denies(host) ? { host, literal: true, allowed: [], denied: [host] } : { host, literal: true, allowed: [address], denied: [] };
  }
  if (isLocalhostName(host) && denied.deniesLoopback) return { host, literal: false, allowed: [], denied: [host] };
  const addresses = await (signal ? abortable(resolve(host), signal) : resolve(host));
  return {
    host,
    literal: false,
    allowed: addresses.filter((entry) => !denied.denies(entry.address)),
    denied: addresses.filter((entry) => denied.denies(entry.address)).map((entry) => entry.address),
  };
}

/** `promise`, or a rejection with the signal's reason if `signal` aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => (signal.removeEventListener("abort", onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener("abort", onAbort), reject(error)),
    );
  });
}
