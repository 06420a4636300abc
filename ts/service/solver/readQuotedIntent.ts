/**
 * Reads a stored quote's `QuotedIntent` (../quote/quotedIntent.ts) defensively: the stored JSON is
 * checked field by field, so a malformed or missing intent is "no match" (null), never a crash.
 * Pure.
 */
import type { Address, Hex } from "viem";
import type { QuotedIntent } from "../quote/quotedIntent.ts";

const isAddress = (v: unknown): v is Address => typeof v === "string" && /^0x[0-9a-fA-F]{40}$/.test(v);
const isBytes32 = (v: unknown): v is Hex => typeof v === "string" && /^0x[0-9a-fA-F]{64}$/.test(v);
const isUintString = (v: unknown): v is string => typeof v === "string" && /^\d+$/.test(v);
const isChainId = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) > 0;
const isTime = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The intent stored with a quote (`quote.intent`), or null when absent or malformed. */
export function readQuotedIntent(storedQuote: unknown): QuotedIntent | null {
  if (typeof storedQuote !== "object" || storedQuote === null) return null;
  const intent = (storedQuote as { intent?: unknown }).intent;
  if (typeof intent !== "object" || intent === null) return null;
  const i = intent as Record<string, unknown>;
  const fees = i.fees as Record<string, unknown> | undefined;
  const ok =
    isBytes32(i.requestId) &&
    isBytes32(i.orderId) &&
    (i.tradeType === "EXACT_INPUT" || i.tradeType === "EXACT_OUTPUT") &&
    isAddress(i.user) &&
    isAddress(i.recipient) &&
    isAddress(i.refundTo) &&
    isChainId(i.originChainId) &&
    isAddress(i.originCurrency) &&
    isUintString(i.originAmount) &&
    isChainId(i.destinationChainId) &&
    isAddress(i.destinationCurrency) &&
    isUintString(i.destinationAmount) &&
    isTime(i.expiresAt) &&
    isTime(i.fillDeadline) &&
    typeof fees === "object" &&
    fees !== null &&
    isUintString(fees.relayerGas) &&
    isUintString(fees.relayerService) &&
    isUintString(fees.app) &&
    Array.isArray(i.appFees) &&
    typeof i.slippageToleranceBps === "string" &&
    (i.referrer === null || i.referrer === undefined || typeof i.referrer === "string");
  if (!ok) return null;
  return { ...(i as QuotedIntent), referrer: (i.referrer as string | null | undefined) ?? null };
}
