/**
 * End to end: the attestation-gated integrator payment. An integrator deploys GatedCheckout on the
 * origin chain trusting the service's attester; a user gets a quote, fetches the request's v2 fill
 * attestation from GET /requests/{requestId}/signature (available before any deposit), and pays
 * through `checkout.pay(att, sig)` instead of the quote's deposit step. The checkout forwards the
 * payment into the Depository under the attested orderId, the solver fills: `success`. Replaying
 * the same attestation reverts.
 */
import { expect } from "chai";
import { BaseError, ContractFunctionRevertedError, getAddress, type Address, type Hex } from "viem";
import gatedCheckoutArtifact from "../../artifacts/contracts/examples/GatedCheckout.sol/GatedCheckout.json" with { type: "json" };
import { gatedCheckoutAbi } from "../../ts/abi/GatedCheckout.ts";
import type { FillAttestationRecord } from "../../ts/client/apiTypes.ts";
import { waitForRequest } from "../../ts/client/waitForRequest.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "./e2eDevnet.ts";

/** The API's string attestation → the contract's FillAttestation tuple. */
function toFillAttestation(a: FillAttestationRecord["attestation"]) {
  return {
    requestId: a.requestId as Hex,
    orderId: a.orderId as Hex,
    originChainId: BigInt(a.originChainId),
    originUser: a.originUser as Hex,
    originCurrency: a.originCurrency as Hex,
    originAmount: BigInt(a.originAmount),
    destinationChainId: BigInt(a.destinationChainId),
    destinationUser: a.destinationUser as Hex,
    destinationCurrency: a.destinationCurrency as Hex,
    destinationAmount: BigInt(a.destinationAmount),
    deadline: BigInt(a.deadline),
    receiver: getAddress(a.receiver),
  };
}

function revertName(error: unknown): string | undefined {
  if (!(error instanceof BaseError)) return undefined;
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
  return reverted instanceof ContractFunctionRevertedError ? reverted.data?.errorName : undefined;
}

describe("e2e: attestation-gated integrator payment (GatedCheckout)", function () {
  this.timeout(180_000);
  let devnet: E2eDevnet;
  let checkout: Address;

  before(async function () {
    this.timeout(120_000);
    devnet = await startE2eDevnet();
    // The integrator: deploys the checkout against the origin Depository and trusts Ferry's attester.
    const integrator = devnet.origin.wallet(devnet.users.at(-1)!);
    const deployHash = await integrator.deployContract({
      abi: gatedCheckoutAbi,
      bytecode: gatedCheckoutArtifact.bytecode as Hex,
      args: [integrator.account.address, devnet.origin.file.contracts.depository!],
    });
    checkout = (await devnet.origin.publicClient.waitForTransactionReceipt({ hash: deployHash })).contractAddress!;
    const setSigner = await integrator.writeContract({
      address: checkout,
      abi: gatedCheckoutAbi,
      functionName: "setSigner",
      args: [devnet.account("attester").address, true],
    });
    expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash: setSigner })).status).to.equal("success");
  });
  after(async () => devnet?.close());

  it("quote → fillAttestation → checkout.pay → solver fills → success; a replayed pay reverts", async () => {
    const user = devnet.users[0]!;
    const recipient = freshRecipient();
    const quote = await devnet.client.getQuote({
      user: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      recipient,
      amount: 10n ** 17n + "",
      tradeType: "EXACT_INPUT",
    });
    const requestId = quote.steps.at(-1)!.requestId;

    // Before any deposit, the service attests the request (v1 record + v2 fill attestation), and binds
    // it to the integrator's checkout (gateAttestation: the only signature a gate accepts).
    const record = await devnet.client.getRequestSignature(requestId, { gate: checkout });
    expect(record.requestData).to.deep.include({ originChainId: ORIGIN, destinationChainId: DESTINATION, originAmount: quote.details.currencyIn.amount });
    expect(record.fillAttestation, "fillAttestation before deposit").to.not.equal(undefined);
    const { attestation } = record.fillAttestation!;
    expect(record.gateAttestation, "gateAttestation with ?gate=").to.not.equal(undefined);
    expect(record.gateAttestation!.gate).to.equal(checkout.toLowerCase());
    expect(record.gateAttestation!.chainId).to.equal(ORIGIN);
    const signature = record.gateAttestation!.signature as Hex;
    expect(attestation.requestId).to.equal(requestId);
    expect(attestation.orderId).to.equal(quote.protocol.v2.orderId);
    expect(attestation.destinationAmount).to.equal(quote.details.currencyOut.amount);
    const att = toFillAttestation(attestation);

    const wallet = devnet.origin.wallet(user);
    /** The custom error a `pay(att, sig)` simulated from the user's wallet reverts with (undefined: none). */
    const payRevert = async (sig: Hex) => {
      try {
        await devnet.origin.publicClient.simulateContract({ account: wallet.account, address: checkout, abi: gatedCheckoutAbi, functionName: "pay", args: [att, sig], value: att.originAmount });
        return undefined;
      } catch (error) {
        return revertName(error) ?? String(error);
      }
    };
    // The destination fill signature is not a gate attestation: the checkout refuses it.
    expect(await payRevert(record.fillAttestation!.signature as Hex), "the bare fill signature is refused").to.equal("SignerNotAllowed");
    const payHash = await wallet.writeContract({ address: checkout, abi: gatedCheckoutAbi, functionName: "pay", args: [att, signature], value: att.originAmount });
    expect((await devnet.origin.publicClient.waitForTransactionReceipt({ hash: payHash })).status).to.equal("success");
    await devnet.client.indexTransaction({ chainId: ORIGIN, txHash: payHash }).catch(() => undefined);

    const status = await waitForRequest({ client: devnet.client, requestId, pollIntervalMs: 250, timeoutMs: 120_000 });
    expect(status.status).to.equal("success");
    expect(status.inTxHashes.map((h) => h.toLowerCase())).to.include(payHash.toLowerCase());
    expect(await devnet.destination.publicClient.getBalance({ address: recipient })).to.equal(BigInt(quote.details.currencyOut.amount));

    // The same attestation cannot pay twice.
    expect(await payRevert(signature), "replayed pay reverts").to.equal("AttestationAlreadyConsumed");
  });
});
