/**
 * The route of an open deposit address (`deposit_addresses.route`, migration 0019): what every payment
 * into it is re-quoted with. The address itself is derived from `refundTo`, the destination chain and
 * currency and the recipient (ts/core `openDepositAddress`); the origin chain is the row's. A payment in
 * any currency the origin chain watches is re-quoted from that currency (EXACT_INPUT, the amount paid);
 * `originCurrency` is the currency the first quote named (informative). The user, app fees and referrer
 * are the first quote's: a later quote of the same address finds the row and changes none of them.
 */
import { Type, type StaticDecode } from "typebox";
import { Address, BpsString, ChainId } from "./values.ts";

export const OpenDepositAddressRoute = Type.Object(
  {
    user: Address,
    recipient: Address,
    originCurrency: Address,
    destinationChainId: ChainId,
    destinationCurrency: Address,
    appFees: Type.Array(Type.Object({ recipient: Address, bps: BpsString }, { additionalProperties: false }), { maxItems: 16 }),
    referrer: Type.Union([Type.String({ maxLength: 256 }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type OpenDepositAddressRoute = StaticDecode<typeof OpenDepositAddressRoute>;
