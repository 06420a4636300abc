import { expect } from "chai";
import { checkFill, type FillCheckInput } from "../../../../ts/service/solver/fill/fillChecks.ts";

const NATIVE = "0x0000000000000000000000000000000000000000" as const;
const TOKEN = "0x00000000000000000000000000000000000000aa" as const;

function input(overrides: { quote?: Partial<FillCheckInput["intent"]>; deposit?: Partial<FillCheckInput["deposit"]>; destination?: Partial<FillCheckInput["destination"]> } = {}): FillCheckInput {
  return {
    intent: {
      originChainId: 1,
      originCurrency: NATIVE,
      originAmount: 100n,
      expiresAt: 1000,
      fillDeadline: 2000,
      destinationCurrency: NATIVE,
      destinationAmount: 90n,
      ...overrides.quote,
    },
    deposit: { chainId: 1, token: NATIVE, amount: 100n, blockTimestamp: 900, ...overrides.deposit },
    destination: { latestBlockTime: 950, deadlineMarginSeconds: 0, solverNativeBalance: 1000n, solverTokenBalance: 0n, gasCost: 10n, ...overrides.destination },
  };
}

const reason = (i: FillCheckInput) => {
  const r = checkFill(i);
  return r.ok ? "ok" : r.failReason;
};

describe("checkFill", () => {
  it("checkFill_allMet_isOk", () => {
    expect(reason(input())).to.equal("ok");
    expect(reason(input({ deposit: { amount: 101n } }))).to.equal("ok");
  });

  it("checkFill_eachFailure_inTheDocumentedOrder", () => {
    // Everything wrong at once: the first check wins, then each next one once the earlier are fixed.
    const bad = {
      quote: { expiresAt: 800, fillDeadline: 900 },
      deposit: { chainId: 2, token: TOKEN, amount: 1n } as const,
      destination: { latestBlockTime: 950, solverNativeBalance: 0n },
    };
    expect(reason(input(bad))).to.equal("ORDER_EXPIRED");
    expect(reason(input({ ...bad, quote: { ...bad.quote, expiresAt: 1000 } }))).to.equal("DEPOSIT_CHAIN_MISMATCH");
    expect(reason(input({ ...bad, quote: { ...bad.quote, expiresAt: 1000 }, deposit: { ...bad.deposit, chainId: 1 } }))).to.equal("INCORRECT_DEPOSIT_CURRENCY");
    expect(reason(input({ ...bad, quote: { ...bad.quote, expiresAt: 1000 }, deposit: { ...bad.deposit, chainId: 1, token: NATIVE } }))).to.equal("DEPOSITED_AMOUNT_TOO_LOW_TO_FILL");
    expect(reason(input({ ...bad, quote: { ...bad.quote, expiresAt: 1000 }, deposit: { chainId: 1 } }))).to.equal("ORDER_EXPIRED");
    expect(reason(input({ destination: { solverNativeBalance: 0n } }))).to.equal("SOLVER_BALANCE_TOO_LOW");
  });

  it("checkFill_depositMinedAtTheExpiry_isStillInTime", () => {
    expect(reason(input({ deposit: { blockTimestamp: 1000 } }))).to.equal("ok");
    expect(reason(input({ deposit: { blockTimestamp: 1001 } }))).to.equal("ORDER_EXPIRED");
  });

  it("checkFill_depositAddressPaidInTime_forwardedAfterTheExpiry_isInTime", () => {
    // The payer paid the deposit address at 990 (before the expiry, 1000); the service's forwarding
    // landed at 1100. Judged by the forwarding's block, the request was refunded in full: the operator
    // paid the forwarding, the refund and the attestation cancel for a payment that was on time.
    expect(reason({ ...input({ deposit: { blockTimestamp: 1100 } }), paidAt: 990 })).to.equal("ok");
    // Paid late stays late, whenever it was forwarded.
    expect(reason({ ...input({ deposit: { blockTimestamp: 1100 } }), paidAt: 1001 })).to.equal("ORDER_EXPIRED");
  });

  it("checkFill_destinationAtTheDeadline_isExpired", () => {
    expect(reason(input({ destination: { latestBlockTime: 1999 } }))).to.equal("ok");
    expect(reason(input({ destination: { latestBlockTime: 2000 } }))).to.equal("ORDER_EXPIRED");
  });

  it("checkFill_destinationWithinTheDeadlineMargin_isExpired_justOutsideIt_isSent", () => {
    // The receiver rejects time > deadline; the fill lands in a later block than the one read, so the
    // solver keeps `deadlineMarginSeconds` of room: latest + margin must stay before the deadline.
    expect(reason(input({ destination: { latestBlockTime: 1969, deadlineMarginSeconds: 30 } }))).to.equal("ok");
    expect(reason(input({ destination: { latestBlockTime: 1970, deadlineMarginSeconds: 30 } }))).to.equal("ORDER_EXPIRED");
    const expired = checkFill(input({ destination: { latestBlockTime: 1990, deadlineMarginSeconds: 30 } }));
    expect(expired).to.deep.include({ ok: false, failReason: "ORDER_EXPIRED" });
    expect((expired as { details: Record<string, unknown> }).details).to.include({ fillDeadline: 2000, destinationTime: 1990, marginSeconds: 30 });
  });

  it("checkFill_solverBalance_coversAmountPlusGasForNative_tokenAndGasForErc20", () => {
    expect(reason(input({ destination: { solverNativeBalance: 100n } }))).to.equal("ok");
    expect(reason(input({ destination: { solverNativeBalance: 99n } }))).to.equal("SOLVER_BALANCE_TOO_LOW");
    const erc20 = { destinationCurrency: TOKEN, destinationAmount: 90n } as const;
    expect(reason(input({ quote: erc20, destination: { solverTokenBalance: 90n, solverNativeBalance: 10n } }))).to.equal("ok");
    expect(reason(input({ quote: erc20, destination: { solverTokenBalance: 89n, solverNativeBalance: 10n } }))).to.equal("SOLVER_BALANCE_TOO_LOW");
    expect(reason(input({ quote: erc20, destination: { solverTokenBalance: 90n, solverNativeBalance: 9n } }))).to.equal("SOLVER_BALANCE_TOO_LOW");
  });
});
