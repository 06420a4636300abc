/**
 * A deny-list of address ranges (config `webhooks.denyNetworks`, CIDR), parsed once: whether an IP
 * address is in one of them. Bracketed IPv6 literals (`[fe80::1]`, as in a URL) are checked as the
 * address, in any IPv6 spelling. An IPv6 address that carries an IPv4 address — IPv4-mapped
 * (`::ffff:0:0/96`, e.g. `::ffff:169.254.169.254` or `::ffff:a9fe:a9fe`), IPv4-compatible (`::/96`) or
 * the NAT64 well-known prefix (`64:ff9b::/96`) — is also checked as that IPv4 address.
 *
 * The local host has more addresses than loopback: a connection to `0.0.0.0` (any of `0.0.0.0/8`, as
 * the URL parser also spells `0` and `0x0`) or to `::` reaches this machine. So whenever loopback is
 * denied (127.0.0.1 or ::1 in a denied range), those are denied too (`deniesLoopback`).
 */
import { BlockList, isIP } from "node:net";
import { ConfigInvalidError } from "./configErrors.ts";

export type AddressFilter = {
  /** Whether `address` (an IP address; anything else is not denied) falls in a denied range. */
  denies(address: string): boolean;
  /** Whether loopback is denied (then 0.0.0.0/8 and :: are too, and `localhost` names). */
  readonly deniesLoopback: boolean;
  readonly ranges: readonly string[];
};

/** Addresses that reach this machine without being loopback addresses. */
const LOCAL_HOST = new BlockList();
LOCAL_HOST.addSubnet("0.0.0.0", 8, "ipv4");
LOCAL_HOST.addAddress("::", "ipv6");

/** The canonical form (the WHATWG URL serializer: compressed, lower case) of an IPv6 address carrying an IPv4 one in its last 32 bits. */
const EMBEDDED_IPV4 = /^\[(?:::|::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/;

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64), or undefined. */
function embeddedIpv4(ipv6: string): string | undefined {
  const match = EMBEDDED_IPV4.exec(new URL(`http://[${ipv6}]/`).hostname);
  if (!match) return undefined;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

export function addressFilter(ranges: readonly string[], field = "webhooks.denyNetworks"): AddressFilter {
  const list = new BlockList();
  ranges.forEach((cidr, i) => {
    const [address = "", prefix, extra] = cidr.split("/");
    const family = isIP(address);
    const bits = Number(prefix);
    if (extra !== undefined || family === 0 || prefix === undefined || !/^[0-9]{1,3}$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
      throw new ConfigInvalidError(`${field}[${i}]`, "must be a CIDR range such as 10.0.0.0/8 or fc00::/7");
    }
    list.addSubnet(address, bits, family === 4 ? "ipv4" : "ipv6");
  });
  const deniesLoopback = list.check("127.0.0.1", "ipv4") || list.check("::1", "ipv6");
  const deniesIpv4 = (address: string) => list.check(address, "ipv4") || (deniesLoopback && LOCAL_HOST.check(address, "ipv4"));
  return {
    ranges: [...ranges],
    deniesLoopback,
    denies(raw) {
      const address = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
      const family = isIP(address);
      if (family === 0) return false;
      if (family === 4) return deniesIpv4(address);
      const carried = embeddedIpv4(address);
      if (carried !== undefined && deniesIpv4(carried)) return true;
      return list.check(address, "ipv6") || (deniesLoopback && LOCAL_HOST.check(address, "ipv6"));
    },
  };
}
