/**
 * Fee sponsorship (the body's `subsidizeFees`): which fee components the app pays from its balance
 * instead of the user, up to the app's cap. Pure, bigint only.
 *
 * Components (the spec's four), each a total in the input currency's smallest units:
 * - `execution`: the quote's `relayerGas` bucket (the fill's gas, the gas top-up, a permit's deposit gas);
 * - `swap`: a swap's loss against the price source's mid price (pool fee and impact), in input units;
 *   0 on a bridge;
 * - `relay`: the service's fee, the `relayerService` bucket (the spec names it after the service; the
 *   key is `relay`, as in `details.expandedPriceImpact.relay`);
 * - `app`: the app fees (`app` bucket).
 *
 * Who pays what: the selected components are sponsored in that fixed order (execution, swap, relay,
 * app) until the cap (`maxSubsidizationAmount`, USD micro-units, converted into input units rounded
 * down) is used up; what the cap does not cover the user pays (`capHit: true`). The sponsored amount
 * is worth `amountUsdMicro` (rounded up: the app is charged at least what it spared the user).
 */
import { ServiceError } from "../errors/serviceError.ts";
import { parseUsd, type Priced } from "../prices/usdPrice.ts";

export const SPONSORABLE_COMPONENTS = ["execution", "swap", "relay", "app"] as const;
export type SponsorableComponent = (typeof SPONSORABLE_COMPONENTS)[number];

/** USD micro-units (6 decimals): the app ledger's unit and the spec's `maxSubsidizationAmount`. */
export const USD_MICRO_DECIMALS = 6;
/** USD E8 (../prices/usdPrice.ts) per USD micro-unit. */
const E8_PER_MICRO = 100n;

/** What the body asked, decoded (routes/quote.ts): the components (default all four) and the cap. */
export type SponsorshipRequest = {
  components: readonly SponsorableComponent[];
  /** USD micro-units; absent: no cap (the whole of the selected components). */
  maxUsdMicro?: bigint;
};

export type ComponentSplit = { selected: boolean; total: bigint; sponsored: bigint; userPays: bigint };

export type FeeSponsorship = {
  selectedComponents: SponsorableComponent[];
  maxUsdMicro?: bigint;
  /** The selected components cost more than the cap: the cap is sponsored, the user pays the rest. */
  capHit: boolean;
  components: Record<SponsorableComponent, ComponentSplit>;
  /** The sponsored total, input units. */
  amount: bigint;
  /** The sponsored total in USD micro-units, rounded up: what the app balance is held and debited. */
  amountUsdMicro: bigint;
};

/**
 * The body's `sponsoredFeeComponents` and `maxSubsidizationAmount`, decoded: unknown or repeated
 * components and a cap that is not a non-negative integer are INVALID_REQUEST.
 */
export function sponsorshipRequest(components: readonly string[] | undefined, maxSubsidizationAmount: string | undefined): SponsorshipRequest {
  const selected = components ?? SPONSORABLE_COMPONENTS;
  const seen = new Set<string>();
  selected.forEach((name, i) => {
    if (!(SPONSORABLE_COMPONENTS as readonly string[]).includes(name)) {
      throw new ServiceError("INVALID_REQUEST", `body/sponsoredFeeComponents/${i} must be one of ${SPONSORABLE_COMPONENTS.join(", ")}`);
    }
    if (seen.has(name)) throw new ServiceError("INVALID_REQUEST", `body/sponsoredFeeComponents/${i}: ${name} is listed twice`);
    seen.add(name);
  });
  if (maxSubsidizationAmount !== undefined && !/^(0|[1-9][0-9]{0,29})$/.test(maxSubsidizationAmount)) {
    throw new ServiceError("INVALID_REQUEST", "body/maxSubsidizationAmount must be a non-negative integer of USD micro-units");
  }
  return {
    components: SPONSORABLE_COMPONENTS.filter((name) => seen.has(name)),
    ...(maxSubsidizationAmount !== undefined && { maxUsdMicro: BigInt(maxSubsidizationAmount) }),
  };
}

/** The USD price of the input currency, E8; sponsorship needs one (the ledger is in USD). */
function priceE8(input: Priced): bigint {
  const price = input.usdPrice === undefined ? 0n : parseUsd(input.usdPrice);
  if (price === 0n) throw new ServiceError("PRICE_UNAVAILABLE", `fees in ${input.symbol} cannot be sponsored: no USD price is configured for it`);
  return price;
}

/** USD micro-units → input units, rounded down (the cap is never exceeded). */
export function usdMicroToUnitsFloor(usdMicro: bigint, input: Priced): bigint {
  return (usdMicro * E8_PER_MICRO * 10n ** BigInt(input.decimals)) / priceE8(input);
}

/** Input units → USD micro-units, rounded up (the app is charged at least the value it sponsored). */
export function unitsToUsdMicroCeil(amount: bigint, input: Priced): bigint {
  const numerator = amount * priceE8(input);
  const denominator = E8_PER_MICRO * 10n ** BigInt(input.decimals);
  return (numerator + denominator - 1n) / denominator;
}

/** Splits each component between the app and the user (see the module comment). */
export function sponsorFees(request: SponsorshipRequest, totals: Record<SponsorableComponent, bigint>, input: Priced): FeeSponsorship {
  let left = request.maxUsdMicro === undefined ? undefined : usdMicroToUnitsFloor(request.maxUsdMicro, input);
  let selectedTotal = 0n;
  const components = {} as Record<SponsorableComponent, ComponentSplit>;
  for (const name of SPONSORABLE_COMPONENTS) {
    const total = totals[name];
    if (total < 0n) throw new RangeError(`fee component ${name} is negative`);
    const selected = request.components.includes(name);
    const sponsored = !selected ? 0n : left === undefined ? total : total < left ? total : left;
    if (selected) selectedTotal += total;
    if (left !== undefined) left -= sponsored;
    components[name] = { selected, total, sponsored, userPays: total - sponsored };
  }
  const amount = SPONSORABLE_COMPONENTS.reduce((sum, name) => sum + components[name].sponsored, 0n);
  return {
    selectedComponents: [...request.components],
    ...(request.maxUsdMicro !== undefined && { maxUsdMicro: request.maxUsdMicro }),
    capHit: amount < selectedTotal,
    components,
    amount,
    amountUsdMicro: amount === 0n ? 0n : unitsToUsdMicroCeil(amount, input),
  };
}

/** The spec's `feeSponsorship.quoted` shape, with Amount objects made by `amount` (input units). */
export type SponsorshipView<A> = {
  selectedComponents: SponsorableComponent[];
  maxSubsidizationAmount?: string;
  capHit: boolean;
  components: Record<SponsorableComponent, { selected: boolean; total: A; sponsored: A; userPays: A }>;
};

type SponsorshipParts = Pick<FeeSponsorship, "selectedComponents" | "maxUsdMicro" | "capHit" | "components">;

/** Who pays what, as the quote (`feeSponsorship`) and the request record (`feeSponsorship.quoted`) show it. */
export function sponsorshipView<A>(sponsorship: SponsorshipParts, amount: (units: bigint) => A): SponsorshipView<A> {
  const split = ({ selected, total, sponsored, userPays }: ComponentSplit) => ({ selected, total: amount(total), sponsored: amount(sponsored), userPays: amount(userPays) });
  const { components: c } = sponsorship;
  return {
    selectedComponents: [...sponsorship.selectedComponents],
    ...(sponsorship.maxUsdMicro !== undefined && { maxSubsidizationAmount: sponsorship.maxUsdMicro.toString() }),
    capHit: sponsorship.capHit,
    components: { execution: split(c.execution), swap: split(c.swap), relay: split(c.relay), app: split(c.app) },
  };
}
