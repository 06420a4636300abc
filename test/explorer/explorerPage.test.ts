/**
 * The explorer page in a real headless Chromium (Debian's `chromium`, driven by playwright-core),
 * against the devnet's service on loopback with its two real chains: the pages of a successful, a
 * failed (a destination call reverts: EXECUTION_REVERTED with the decoded revert, then refunded) and
 * a refunded request (the fill deadline passed: ORDER_EXPIRED); a tampered receipt shown invalid,
 * naming the failed check; the search by id, hash and user; the visitor's webhook log; and the page
 * with every request beyond the service's origin blocked. Screenshots go to test-artifacts/explorer/.
 *
 * Without Chromium the suite is skipped with the reason printed — unless FERRY_TEST_REQUIRE_CHROMIUM=1
 * (CI), where it fails. FERRY_CHROMIUM names another executable.
 */
import { expect } from "chai";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { encodeFunctionData, erc20Abi, parseAbi, parseEther, type Address, type Hex } from "viem";
import { waitForRequest } from "../../ts/client/waitForRequest.ts";
import { DEVNET_VAULT_CAP } from "../../ts/devnet/devnetMarket.ts";
import { writeExplorerBundle } from "../../scripts/build-explorer.ts";
import { REPO_ROOT } from "../cli/runCli.ts";
import { DESTINATION, NATIVE, ORIGIN, freshRecipient, startE2eDevnet, type E2eDevnet } from "../e2e/e2eDevnet.ts";

const CHROMIUM = process.env.FERRY_CHROMIUM ?? "/usr/bin/chromium";
const ARTIFACTS = join(REPO_ROOT, "test-artifacts/explorer");
const VAULT_ABI = parseAbi(["function deposit(uint256 assets, address receiver) returns (uint256)"]);

type Json = Record<string, any>;

describe("explorer: the request pages in headless Chromium", function () {
  this.timeout(600_000);
  let devnet: E2eDevnet;
  let browser: Browser;
  let context: BrowserContext;
  let webhookReceiver: Server;
  let origin: string;
  const ids = { success: "" as Hex, failed: "" as Hex, refunded: "" as Hex, waiting: "" as Hex };
  let successDeposit: Hex;
  let successUser: Address;
  let offOrigin: string[] = [];

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      const reason = `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or FERRY_CHROMIUM=<path>)`;
      if (process.env.FERRY_TEST_REQUIRE_CHROMIUM === "1") throw new Error(`FERRY_TEST_REQUIRE_CHROMIUM=1 but ${reason}`);
      console.log(`    skipped: ${reason}`);
      this.skip();
    }
    this.timeout(480_000);
    await mkdir(ARTIFACTS, { recursive: true });
    // The page's script from today's sources (what npm test and npm start do first).
    await writeExplorerBundle();
    // The devnet key's webhook endpoint: answers 200 to every delivery.
    webhookReceiver = createServer((request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(200).end("ok"));
    });
    await new Promise<void>((resolve) => webhookReceiver.listen(0, "127.0.0.1", resolve));
    devnet = await startE2eDevnet({ webhookUrl: `http://127.0.0.1:${(webhookReceiver.address() as AddressInfo).port}/hook` });
    origin = new URL(devnet.file.apiUrl).origin;
    browser = await chromium.launch({ executablePath: CHROMIUM });
    context = await browser.newContext({ baseURL: origin, viewport: { width: 1200, height: 900 } });
    // Every request beyond the service's origin is refused and remembered: the page must need none.
    await context.route(
      (url) => url.origin !== origin,
      async (route) => {
        offOrigin.push(route.request().url());
        await route.abort("blockedbyclient");
      },
    );

    // 1. Success: a native bridge quoted with the devnet's API key (its webhook gets the events).
    const user = devnet.users[0]!;
    successUser = user.address;
    const quote = await nativeBridge(user.address, "0.01");
    ids.success = quote.steps.at(-1)!.requestId as Hex;
    const result = await devnet.client.executeQuote({ quote, walletClient: devnet.origin.wallet(user), publicClient: devnet.origin.publicClient, pollIntervalMs: 250, timeoutMs: 120_000 });
    expect(result.status.status).to.equal("success");
    successDeposit = result.status.inTxHashes[0] as Hex;
    await until(async () => (await fetch(`${origin}/requests/${ids.success}/receipt`)).status === 200, "the success's receipt");

    // 2. Failed fill: a destination call reverts (a vault deposit above its cap), decoded, then refunded.
    const fusd = devnet.destination.file.contracts.stablecoin!;
    const vault = devnet.destination.file.contracts.vault!;
    const caller = devnet.users[1]!;
    const amount = DEVNET_VAULT_CAP + 1_000_000n;
    const callQuote = await devnet.client.getQuote({
      user: caller.address,
      recipient: caller.address,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: fusd,
      destinationCurrency: fusd,
      amount: amount.toString(),
      tradeType: "EXACT_OUTPUT",
      txs: [
        { to: fusd, data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [vault, amount] }), value: "0" },
        { to: vault, data: encodeFunctionData({ abi: VAULT_ABI, functionName: "deposit", args: [amount, caller.address] }), value: "0" },
      ],
    });
    ids.failed = callQuote.steps.at(-1)!.requestId as Hex;
    await devnet.client.executeQuote({ quote: callQuote, walletClient: devnet.origin.wallet(caller), pollIntervalMs: 200, timeoutMs: 120_000 }).catch(() => undefined);
    await waitForRequest({ client: devnet.client, requestId: ids.failed, pollIntervalMs: 200, timeoutMs: 90_000, until: (s) => s.status === "refund" });

    // Quoted, never deposited: waiting.
    ids.waiting = (await nativeBridge(devnet.users[3]!.address, "0.02")).steps.at(-1)!.requestId as Hex;

    // 3. Refunded: the destination's clock passes the fill deadline before the deposit (last: it moves that chain's time).
    const late = devnet.users[2]!;
    const lateQuote = await nativeBridge(late.address, "0.5");
    ids.refunded = lateQuote.steps.at(-1)!.requestId as Hex;
    const latest = await devnet.destination.publicClient.getBlock();
    await devnet.destination.testClient.increaseTime({ seconds: lateQuote.protocol.v2.orderData.output.deadline - Number(latest.timestamp) + 86_400 });
    await devnet.destination.testClient.mine({ blocks: 1 });
    await devnet.client.executeQuote({ quote: lateQuote, walletClient: devnet.origin.wallet(late), pollIntervalMs: 250, timeoutMs: 120_000 }).catch(() => undefined);
    await waitForRequest({ client: devnet.client, requestId: ids.refunded, pollIntervalMs: 250, timeoutMs: 120_000, until: (s) => s.status === "refund" });
  });

  after(async () => {
    await browser?.close();
    await devnet?.close();
    await new Promise((resolve) => (webhookReceiver ? webhookReceiver.close(resolve) : resolve(undefined)));
  });

  afterEach(() => {
    expect(offOrigin, "requests beyond the service's origin").to.deep.equal([]);
    offOrigin = [];
  });

  /** A quote of `ether` ETH from the origin to a fresh recipient on the destination. */
  function nativeBridge(user: Address, ether: string) {
    const [originCurrency, destinationCurrency, recipient, amount] = [NATIVE, NATIVE, freshRecipient(), parseEther(ether).toString()];
    return devnet.client.getQuote({ user, originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency, destinationCurrency, recipient, amount, tradeType: "EXACT_INPUT" });
  }

  /** A page of the explorer, loaded until its script says it is done (body[data-ready]). */
  async function open(path: string, setup?: (page: Page) => Promise<void>): Promise<Page> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(String(error)));
    page.on("console", (message) => message.type() === "error" && !/Failed to load resource/.test(message.text()) && errors.push(message.text()));
    if (setup) await setup(page);
    await page.goto(path);
    await page.waitForSelector("body[data-ready=true]", { timeout: 60_000 });
    expect(errors, "errors in the page").to.deep.equal([]);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
  const stepState = (page: Page, step: string) => page.getAttribute(`[data-step=${step}]`, "data-state");
  const rows = (page: Page, role: string) => page.locator(`#transactions tr[data-role="${role}"]`);

  it("a successful request: the timeline done, its deposit, fill and repayment, the attestation valid, the solver's word", async () => {
    const page = await open(`/explorer/requests/${ids.success}`);
    await page.waitForSelector(".verdict");
    await shot(page, "success");
    expect(await page.textContent("#status")).to.equal("success");
    for (const step of ["quoted", "deposit", "fill", "outcome"]) expect(await stepState(page, step), step).to.equal("done");
    const status = (await (await fetch(`${origin}/intents/status/v3?requestId=${ids.success}`)).json()) as Json;
    const receipt = (await (await fetch(`${origin}/requests/${ids.success}/receipt`)).json()) as Json;
    expect(await rows(page, "deposit").locator("td.hash").textContent()).to.equal(successDeposit.toLowerCase());
    expect(await rows(page, "fill").locator("td.hash").textContent()).to.equal(status.txHashes[0].toLowerCase());
    expect(await rows(page, "repayment").locator("td.hash").textContent()).to.equal(receipt.repayment.txHash.toLowerCase());
    expect(await page.textContent("#receipt-verdict")).to.match(/^attestation: valid — all \d+ checks passed; signed by 0x[0-9a-fA-F]{40}\.$/);
    expect(await page.textContent("#decision-text")).to.include("The request succeeded");
    expect(await page.textContent("#decision-verdict")).to.equal("filled: the recipient was paid");
  });

  it("a tampered receipt (one field changed in flight) is shown invalid, naming the failed check", async () => {
    const page = await open(`/explorer/requests/${ids.success}`, async (p) => {
      await p.route(`**/requests/${ids.success}/receipt`, async (route) => {
        const response = await route.fetch();
        const receipt = (await response.json()) as Json;
        receipt.deposit.fields.amount = "1";
        await route.fulfill({ response, json: receipt });
      });
    });
    await page.waitForSelector(".verdict");
    await shot(page, "tampered-receipt");
    expect(await page.textContent(".verdict")).to.equal("attestation: invalid");
    expect(await page.getAttribute("#receipt-verdict", "data-failed-check")).to.equal("deposit.log.fields");
    expect(await page.textContent("#receipt-verdict")).to.include("failed check deposit.log.fields (RECEIPT_INVALID)");
  });

  it("a failed fill: the destination call's revert decoded, the fill step failed, then the refund", async () => {
    const page = await open(`/explorer/requests/${ids.failed}`);
    await shot(page, "failed");
    expect(await page.textContent("#status")).to.equal("refund");
    expect(await page.textContent("#fail-reason")).to.equal("EXECUTION_REVERTED");
    expect(await stepState(page, "fill")).to.equal("failed");
    expect(await stepState(page, "outcome")).to.equal("done");
    expect(await page.textContent("#revert code")).to.equal("ERC4626ExceededMaxDeposit");
    expect(await page.textContent("#revert")).to.include(String(DEVNET_VAULT_CAP));
    expect(await page.textContent("#decision-text")).to.include("(EXECUTION_REVERTED)");
    expect(await page.textContent("#decision-verdict")).to.equal("refused and refunded: refused with EXECUTION_REVERTED; the deposit went back on chain 31337");
    expect(await rows(page, "deposit").count()).to.equal(1);
    expect(await rows(page, "refund").count()).to.equal(1);
    expect(await page.textContent("#receipt-verdict")).to.include("no receipt");
  });

  it("a refunded request (fill deadline passed): ORDER_EXPIRED, no fill, the refund transaction", async () => {
    const page = await open(`/explorer/requests/${ids.refunded}`);
    await shot(page, "refunded");
    expect(await page.textContent("#status")).to.equal("refund");
    expect(await page.textContent("#fail-reason")).to.equal("ORDER_EXPIRED");
    expect(await stepState(page, "deposit")).to.equal("done");
    expect(await stepState(page, "fill")).to.equal("failed");
    expect(await stepState(page, "outcome")).to.equal("done");
    expect(await page.textContent("[data-step=outcome] .step-label")).to.equal("Refunded");
    expect(await rows(page, "fill").count()).to.equal(0);
    const status = (await (await fetch(`${origin}/intents/status/v3?requestId=${ids.refunded}`)).json()) as Json;
    expect(await rows(page, "refund").locator("td.hash").textContent()).to.equal(status.txHashes.at(-1).toLowerCase());
    expect(await page.textContent("#receipt-verdict")).to.include("no receipt");
  });

  it("a quoted request without a deposit: waiting for the deposit, found by its id too", async () => {
    const page = await open(`/explorer/requests/${ids.waiting}`);
    await shot(page, "waiting");
    expect(await page.textContent("#status")).to.equal("waiting");
    expect(await stepState(page, "deposit")).to.equal("current");
    expect(await stepState(page, "fill")).to.equal("not reached");
    expect(await page.textContent("#decision-verdict")).to.equal("waiting for the deposit: no deposit matching the quote is indexed on chain 31337 yet");
    expect(await page.textContent("#receipt-verdict")).to.include("no receipt");
    const search = await open(`/explorer?q=${ids.waiting}`);
    expect(await search.locator(`#results a[href="/explorer/requests/${ids.waiting}"]`).count()).to.equal(1);
  });

  it("search by request id, by transaction hash and by user lists the request and links to its page", async () => {
    for (const [name, q] of [["id", ids.success], ["hash", successDeposit], ["user", successUser]] as const) {
      const page = await open(`/explorer?q=${q}`);
      if (name === "user") await shot(page, "search-user");
      const link = page.locator(`#results a[href="/explorer/requests/${ids.success}"]`);
      expect(await link.count(), `search by ${name}`).to.equal(1);
      await page.close();
    }
    // Typed into the box and sent with the keyboard; followed to the request's page.
    const page = await open("/explorer");
    await page.getByLabel("Request id, transaction hash or user address").fill(successDeposit);
    await page.keyboard.press("Enter");
    await page.waitForSelector("#results a");
    await page.locator("#results a").first().focus();
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/explorer/requests/${ids.success}`);
    await page.waitForSelector("body[data-ready=true]");
    expect(await page.textContent("#status")).to.equal("success");
    // Nonsense is refused in the page, before any request.
    const bad = await open("/explorer?q=hello");
    expect(await bad.textContent("[role=alert]")).to.include("Enter a request id");
  });

  it("the visitor's webhook log: with the app's key typed in, every event of its request and each attempt", async () => {
    const page = await open(`/explorer/requests/${ids.success}`);
    await page.getByLabel("Your API key", { exact: true }).fill(devnet.file.apiKey);
    await page.getByRole("button", { name: "Show my webhook deliveries" }).click();
    await page.waitForSelector("#webhook-log table, #webhook-log p");
    await until(async () => {
      await page.getByRole("button", { name: "Show my webhook deliveries" }).click();
      await page.waitForSelector("#webhook-log table, #webhook-log [role=alert], #webhook-log p:not([role=status])");
      const delivered = await page.locator("#webhook-log tr[data-event] td:nth-child(3)").allTextContents();
      return delivered.length >= 2 && delivered.every((state) => state === "delivered");
    }, "the webhook deliveries");
    await shot(page, "webhook-log");
    const statuses = await page.locator("#webhook-log tr[data-event] td:nth-child(2)").allTextContents();
    expect(statuses.at(-1)).to.equal("success");
    expect(await page.locator("#webhook-log tr[data-event] td:nth-child(4)").first().textContent()).to.match(/^#1 .* 200 \(\d+ ms\)/);
    // A wrong key is the API's 401, shown as such; the key is never put in the URL.
    await page.getByLabel("Your API key", { exact: true }).fill("ferry_not_a_key");
    await page.getByRole("button", { name: "Show my webhook deliveries" }).click();
    await page.waitForSelector("#webhook-log [role=alert]");
    expect(await page.textContent("#webhook-log [role=alert]")).to.include("INVALID_API_KEY");
    expect(page.url()).to.not.include("ferry_");
  });

  it("is accessible: landmarks, one h1, labelled fields, keyboard reachable, states in words", async () => {
    const page = await open(`/explorer/requests/${ids.success}`);
    for (const role of ["banner", "main", "contentinfo", "search"] as const) expect(await page.getByRole(role).count(), role).to.equal(1);
    expect(await page.locator("h1").count()).to.equal(1);
    expect(await page.getByRole("heading", { level: 2 }).allTextContents()).to.include.members(["Lifecycle", "Transactions", "The solver's decision", "Attestation"]);
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).to.equal("Skip to the content");
    for (const step of await page.locator(".step-state").allTextContents()) expect(step).to.match(/^\((done|current|failed|skipped|not reached)\)$/);
  });

  it("loads with the network cut beyond the service's origin, and the document forbids other origins", async () => {
    const response = await fetch(`${origin}/explorer/requests/${ids.success}`);
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).to.include("default-src 'none'").and.include("connect-src 'self'").and.include("script-src 'self'");
    const requested: string[] = [];
    const page = await open(`/explorer/requests/${ids.success}`, async (p) => void p.on("request", (request) => requested.push(new URL(request.url()).origin)));
    await page.waitForSelector(".verdict-valid");
    expect(new Set(requested)).to.deep.equal(new Set([origin]));
  });
});

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
