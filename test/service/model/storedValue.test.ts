/** ts/service/model/storedValue.ts: a stored value is decoded once with its schema; a corrupted one is a typed error naming the field. */
import { expect } from "chai";
import { zeroAddress } from "viem";
import { QuotedIntent, type QuotedIntentJson } from "../../../ts/service/model/quotedIntent.ts";
import { decodeStored, encodeStored, StoredValueInvalidError } from "../../../ts/service/model/storedValue.ts";

const ID = `0x${"ab".repeat(32)}` as const;
const USER = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

const stored: QuotedIntentJson = {
  requestId: ID,
  orderId: ID,
  tradeType: "EXACT_INPUT",
  user: USER,
  recipient: USER,
  refundTo: USER,
  originChainId: 1,
  originCurrency: zeroAddress,
  originAmount: "100",
  destinationChainId: 2,
  destinationCurrency: zeroAddress,
  destinationAmount: "90",
  expiresAt: 10,
  fillDeadline: 20,
  fees: { relayerGas: "1", relayerService: "2", app: "0" },
  appFees: [],
  slippageToleranceBps: "0",
  referrer: null,
};

function decodeError(value: unknown): StoredValueInvalidError {
  try {
    decodeStored(QuotedIntent, value, "quotes.intent", ID);
  } catch (error) {
    expect(error).to.be.instanceOf(StoredValueInvalidError);
    return error as StoredValueInvalidError;
  }
  throw new Error("expected a StoredValueInvalidError");
}

describe("model/storedValue", () => {
  it("decodeStored_returnsCanonicalTypedValues_andEncodeStoredRoundTrips", () => {
    const intent = decodeStored(QuotedIntent, stored, "quotes.intent", ID);
    expect(intent.originAmount).to.equal(100n);
    expect(intent.fees.relayerService).to.equal(2n);
    expect(intent.user).to.equal(USER.toLowerCase());
    expect(encodeStored(QuotedIntent, intent)).to.deep.equal({ ...stored, user: USER.toLowerCase(), recipient: USER.toLowerCase(), refundTo: USER.toLowerCase() });
  });

  it("decodeStored_throwsATypedErrorNamingTheField_whenTheRowIsCorrupted", () => {
    const amount = decodeError({ ...stored, originAmount: 100 });
    expect(amount.code).to.equal("STORED_VALUE_INVALID");
    expect(amount.field).to.equal("originAmount");
    expect(amount.where).to.equal("quotes.intent");
    expect(decodeError({ ...stored, fees: { ...stored.fees, app: "-1" } }).field).to.equal("fees.app");
    expect(decodeError({ ...stored, orderId: "0x12" }).field).to.equal("orderId");
    expect(decodeError(null).code).to.equal("STORED_VALUE_INVALID");
    expect(decodeError({ ...stored, originAmount: (2n ** 256n).toString() }).code).to.equal("STORED_VALUE_INVALID");
  });
});
