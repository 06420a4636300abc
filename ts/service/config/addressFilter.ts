/**
 * A deny-list of address ranges (config `webhooks.denyNetworks`, CIDR), parsed once: whether an IP
 * address is in one of them. IPv4-mapped IPv6 addresses (`::ffff:169.254.169.254`) are checked as the
 * IPv4 address they carry, and bracketed IPv6 literals (`[fe80::1]`, as in a URL) as the address.
 */
import { BlockList, isIP } from "node:net";
import { ConfigInvalidError } from "./configErrors.ts";

export type AddressFilter = {
  /** Whether `address` (an IP address; anything else is not denied) falls in a denied range. */
  denies(address: string): boolean;
  readonly ranges: readonly string[];
};

const MAPPED_IPV4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

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
  return {
    ranges: [...ranges],
    denies(raw) {
      const address = raw.startsWith("[") && raw.endsWith("]") ? raw.slice(1, -1) : raw;
      const mapped = MAPPED_IPV4.exec(address)?.[1];
      if (mapped !== undefined && isIP(mapped) === 4) return list.check(mapped, "ipv4");
      const family = isIP(address);
      if (family === 0) return false;
      return list.check(address, family === 4 ? "ipv4" : "ipv6");
    },
  };
}
