/**
 * `ferry devnet send-steps` against a real in-process devnet (its devnet.json, the real bin): a quote
 * is sent once; sending the same quote.json again — the deposit already went out — is refused with
 * DEPOSIT_ALREADY_SENT (exit 2, nothing sent, the transaction named), and `--force` sends it anyway.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { expect } from "chai";
import { parseEther } from "viem";
import { DESTINATION, NATIVE, ORIGIN, startE2eDevnet, type E2eDevnet } from "../e2e/e2eDevnet.ts";
import { errorLine, runCliAsync } from "./runCli.ts";

describe("ferry devnet send-steps: a quote's deposit goes out once", function () {
  this.timeout(300_000);
  let devnet: E2eDevnet;

  before(async function () {
    this.timeout(180_000);
    devnet = await startE2eDevnet();
  });
  after(async () => devnet?.close());

  it("refuses to resend a quote whose deposit already went out (DEPOSIT_ALREADY_SENT); --force sends it", async () => {
    const user = devnet.users[2]!;
    const quote = await devnet.client.getQuote({
      user: user.address,
      recipient: user.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: NATIVE,
      destinationCurrency: NATIVE,
      amount: parseEther("0.05").toString(),
      tradeType: "EXACT_INPUT",
    });
    const path = join(devnet.devnetDir, "quote.json");
    await writeFile(path, JSON.stringify(quote));
    const send = (...flags: string[]) => runCliAsync(["devnet", "send-steps", path, "--devnet-dir", devnet.devnetDir, "--json", ...flags]);
    const deposits = async () => BigInt(await devnet.origin.publicClient.getTransactionCount({ address: user.address }));

    const first = await send("--wait");
    expect(first.status, first.stderr).to.equal(0);
    const sent = JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { status: string; transactions: { hash: string }[] };
    expect(sent.status).to.equal("success");
    const nonce = await deposits();

    const again = await send();
    expect(again.status, again.stderr).to.equal(2);
    const refused = JSON.parse(errorLine(again)) as { error: { code: string; message: string } };
    expect(refused.error.code).to.equal("DEPOSIT_ALREADY_SENT");
    expect(refused.error.message).to.match(
      new RegExp(`^this quote's deposit already went out \\(orderId ${quote.protocol.v2.orderId}, transaction ${sent.transactions[0]!.hash}\\): .*pass --force`),
    );
    expect(await deposits(), "nothing was sent").to.equal(nonce);

    const forced = await send("--force");
    expect(forced.status, forced.stderr).to.equal(0);
    expect(forced.stderr).to.include(`--force: this quote's deposit already went out in ${sent.transactions[0]!.hash}`);
    expect(await deposits()).to.equal(nonce + 1n);
  });
});
