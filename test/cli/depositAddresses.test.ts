/**
 * `ferry deposit-addresses show <address>` (ts/cli/commands/depositAddresses.ts), in process, on both
 * paths an operator has: the service's database (an embedded PGlite data folder) and a running
 * service's admin API (GET /admin/deposit-addresses/{address}, over real HTTP on loopback, on a
 * PostgreSQL store when one is reachable, else PGlite). A forwarded address with an excess refunded
 * and a second payment refunded shows each payment: the payer's transaction, currency, amount, block,
 * outcome, reason, request and refund transaction; both paths answer the same JSON. An address the
 * service never handed out is DEPOSIT_ADDRESS_NOT_FOUND (exit 2), a malformed one a usage error.
 */
import { randomBytes } from "node:crypto";
import { expect } from "chai";
import type { DepositAddressPayment } from "../../ts/service/model/depositAddressPayment.ts";
import type { DepositAddressRefund } from "../../ts/service/model/depositAddressRefund.ts";
import type { Store } from "../../ts/service/store/createStore.ts";
import type { Bytes32 } from "../../ts/service/model/values.ts";
import { fixtureConfig, listen } from "../service/http/testApp.ts";
import { hex } from "../service/fixtures/testRequest.ts";
import { errorLine, runCliInProcess, type CliRun } from "./runCli.ts";
import { pgliteDatabase, postgresDatabase, type ServiceDatabase } from "./serviceDatabase.ts";

const TOKEN = randomBytes(32).toString("hex");
const NEUTRAL = { FERRY_CONFIG: "", DATABASE_URL: "", FERRY_DATA_DIR: "", FERRY_API_URL: "", FERRY_ADMIN_TOKEN: "", FERRY_DEVNET_DIR: "", FERRY_WEBHOOK_SECRET_KEY: "" };
const ADDRESS = "0x00000000000000000000000000000000000da0da" as const;
const NATIVE = "0x0000000000000000000000000000000000000000" as const;
const PAYER = "0x00000000000000000000000000000000000000aa" as const;
const REFUND_TO = "0x00000000000000000000000000000000000000bb" as const;

function ok(run: CliRun): CliRun {
  expect(run.status, run.stderr).to.equal(0);
  return run;
}

const payment = (txHash: Bytes32, amount: bigint, blockNumber: number): DepositAddressPayment => ({
  chainId: 31337,
  address: ADDRESS,
  token: NATIVE,
  amount,
  depositor: PAYER,
  txHash,
  blockNumber,
  blockTimestamp: 1_800_000_000 + blockNumber,
});

const refund = (n: number, amount: bigint, reason: DepositAddressRefund["reason"], paidIn: Bytes32, block: number): DepositAddressRefund => ({
  token: NATIVE,
  amount,
  reason,
  instructionId: hex(100 + n),
  state: "confirmed",
  plannedAtBlock: block,
  txHash: hex(200 + n),
  payment: payment(paidIn, amount, block),
});

/** A strict address forwarded (block 10), its excess refunded, and a second payment (block 20) refunded. */
async function seed(store: Store): Promise<void> {
  await store.saveDepositAddress({
    chainId: 31337,
    address: ADDRESS,
    mode: "strict",
    factory: "0x00000000000000000000000000000000000000fa",
    refundTo: REFUND_TO,
    requestId: hex(1),
    orderId: hex(2),
    currency: NATIVE,
    amount: 200n,
    expiresAt: new Date("2027-01-15T10:00:00.000Z"),
  });
  await store.markDepositAddressForwarding(
    { chainId: 31337, address: ADDRESS },
    { instructionId: hex(3), payment: payment(hex(10), 200n, 10), refunds: [refund(0, 50n, "INCORRECT_PAYMENT", hex(10), 10)] },
  );
  expect(await store.addDepositAddressLaterRefunds({ chainId: 31337, address: ADDRESS }, 1, [refund(1, 200n, "DOUBLE_SPEND", hex(20), 20)])).to.equal(true);
}

function expectShown(run: CliRun): unknown {
  const shown = JSON.parse(ok(run).stdout) as { depositAddresses: Array<Record<string, unknown> & { payments: Array<Record<string, unknown>> }> };
  expect(shown.depositAddresses).to.have.length(1);
  const [view] = shown.depositAddresses;
  expect(view).to.deep.include({ chainId: 31337, address: ADDRESS, state: "forwarding", requestId: hex(1), amount: "200", refundTo: REFUND_TO, expiresAt: "2027-01-15T10:00:00.000Z" });
  expect(view!.payments.map((p) => [p.txHash, p.amount, p.block, p.outcome, p.reason, p.requestId, p.refundTxHash])).to.deep.equal([
    [hex(10), "200", 10, "forwarded", null, hex(1), null],
    [hex(10), "50", 10, "refund confirmed", "INCORRECT_PAYMENT", hex(1), hex(200)],
    [hex(20), "200", 20, "refund confirmed", "DOUBLE_SPEND", hex(1), hex(201)],
  ]);
  return shown;
}

describe("ferry deposit-addresses show", function () {
  this.timeout(120_000);
  const databases: ServiceDatabase[] = [];
  after(async () => {
    for (const db of databases) await db.drop();
  });

  it("in the service's database: each payment, its outcome and refund; the text names them too; unknown and malformed addresses refused", async () => {
    const db = pgliteDatabase();
    databases.push(db);
    const store = await db.open();
    await seed(store);
    await store.close();

    const json = expectShown(await db.run(["deposit-addresses", "show", ADDRESS, "--json"]));
    // The checksummed form is the same address.
    expect(JSON.parse(ok(await db.run(["deposit-addresses", "show", ADDRESS.toUpperCase().replace("0X", "0x"), "--json"])).stdout)).to.deep.equal(json);
    const text = ok(await db.run(["deposit-addresses", "show", ADDRESS])).stdout;
    expect(text).to.include(`${ADDRESS} on chain 31337 (strict): forwarding`).and.include("DOUBLE_SPEND").and.include("refund confirmed").and.include(hex(201));

    const unknown = await db.run(["deposit-addresses", "show", "0x00000000000000000000000000000000000dead0"]);
    expect(unknown.status).to.equal(2);
    expect(errorLine(unknown)).to.match(/^ferry: DEPOSIT_ADDRESS_NOT_FOUND: /);
    const malformed = await db.run(["deposit-addresses", "show", "0x1234"]);
    expect(malformed.status).to.equal(2);
  });

  it("over the admin API: the same answer, and 404 DEPOSIT_ADDRESS_NOT_FOUND", async function () {
    const postgres = await postgresDatabase();
    const db = "reason" in postgres ? pgliteDatabase() : postgres;
    databases.push(db);
    const store = await db.open();
    const server = await listen({ deps: { store }, config: fixtureConfig({}, { FERRY_ADMIN_TOKEN: TOKEN }) });
    try {
      await seed(store);
      const env = { ...NEUTRAL, FERRY_API_URL: server.url, FERRY_ADMIN_TOKEN: TOKEN };
      expectShown(await runCliInProcess(["deposit-addresses", "show", ADDRESS, "--json"], { env }));
      const direct = await fetch(`${server.url}/admin/deposit-addresses/0x00000000000000000000000000000000000dead0`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(direct.status).to.equal(404);
      expect(((await direct.json()) as { errorCode: string }).errorCode).to.equal("DEPOSIT_ADDRESS_NOT_FOUND");
      const malformed = await fetch(`${server.url}/admin/deposit-addresses/0x1234`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(malformed.status).to.equal(400);
      const unauthorized = await fetch(`${server.url}/admin/deposit-addresses/${ADDRESS}`);
      expect(unauthorized.status).to.equal(401);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
