/**
 * An address a route takes (path, query or body), read once with ts/core's one address rule
 * (`isEip55Address`): all-lowercase and all-uppercase hex carry no checksum and are accepted; mixed
 * case must be the address's own EIP-55 checksum — one that is not is most likely a typo, and funds
 * sent to it would be lost (400 INVALID_ADDRESS on every route alike). Returned as the model's
 * canonical `Address` (lowercase): the one place an address from HTTP becomes one.
 * The schema's pattern has already checked the shape.
 */
import { isEip55Address } from "../../core/inputParsers.ts";
import { ServiceError } from "../errors/serviceError.ts";
import { canonicalAddress, type Address } from "../model/values.ts";

export function addressInput(value: string, field: string): Address {
  if (!isEip55Address(value)) throw new ServiceError("INVALID_ADDRESS", `${field} has a mixed-case EIP-55 checksum that does not match: check it for a typo`);
  return canonicalAddress(value);
}
