/**
 * ts/service/store/webhooks/webhookRules.ts on its own (pure, no database): the endpoint and header rules and
 * the codes they throw. The store's setWebhook applies the same rules (./webhooks.test.ts, both engines).
 */
import { expect } from "chai";
import { isFerryError } from "../../../../ts/core/errors.ts";
import { addressFilter } from "../../../../ts/service/config/addressFilter.ts";
import { checkWebhookDestination, isLoopbackHost, MAX_WEBHOOK_HEADERS, validateWebhookHeaders, validateWebhookUrl, WebhookError } from "../../../../ts/service/store/webhooks/webhookRules.ts";

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("did not throw");
}

describe("webhookRules", () => {
  it("validateWebhookUrl_refusesWhatIsNotAnHttpsEndpoint_withInvalidWebhookUrlOnTheUrlField", () => {
    for (const url of ["", "not a url", "ftp://hooks.example/x", "http://hooks.example/x", "https://user:pw@hooks.example/x", "https://hooks.example/x#frag", `https://h.example/${"a".repeat(2050)}`]) {
      const error = thrownBy(() => validateWebhookUrl(url));
      expect(isFerryError(error, "INVALID_WEBHOOK_URL"), url).to.equal(true);
      expect((error as WebhookError).field).to.equal("url");
    }
  });

  it("validateWebhookUrl_acceptsHttps_andHttpToLoopbackOnly_unlessAllowHttp", () => {
    for (const url of ["https://hooks.example/x?tenant=1", "http://127.0.0.1:9000/x", "http://127.8.9.10/x", "http://localhost:9000/x", "http://[::1]:9000/x"]) {
      expect(validateWebhookUrl(url)).to.equal(url);
    }
    expect(validateWebhookUrl("http://hooks.example/x", { allowHttp: true })).to.equal("http://hooks.example/x");
  });

  it("validateWebhookUrl_refusesADeniedAddressInAnySpelling", () => {
    const denied = addressFilter(["127.0.0.0/8", "169.254.0.0/16"]);
    for (const url of ["https://169.254.169.254/latest", "https://2130706433/x", "https://127.1/x", "https://0x7f.1/x", "https://localhost/x", "https://a.localhost/x"]) {
      expect(isFerryError(thrownBy(() => validateWebhookUrl(url, { denied })), "INVALID_WEBHOOK_URL"), url).to.equal(true);
    }
    expect(validateWebhookUrl("https://hooks.example/x", { denied })).to.equal("https://hooks.example/x");
  });

  it("checkWebhookDestination_refusesANameThatResolvesIntoADeniedRange_andAcceptsOneThatDoesNotResolve", async () => {
    const denied = addressFilter(["10.0.0.0/8"]);
    const error = await checkWebhookDestination("https://inside.example/x", denied, async () => [{ address: "10.1.2.3", family: 4 }]).catch((e: unknown) => e);
    expect(isFerryError(error, "INVALID_WEBHOOK_URL")).to.equal(true);
    await checkWebhookDestination("https://outside.example/x", denied, async () => [{ address: "93.184.216.34", family: 4 }]);
    await checkWebhookDestination("https://nowhere.example/x", denied, async () => Promise.reject(new Error("ENOTFOUND")));
  });

  it("validateWebhookHeaders_refusesInjectionsAndFerrysOwnHeaders_namingTheHeaderNotItsValue", () => {
    const bad: Array<Record<string, string>> = [
      { "X-A": "one\r\nX-Injected: 1" },
      { "Bad Name": "v" },
      { "Content-Type": "text/plain" },
      { "X-Signature-SHA256": "00" },
      { "X-Ferry-Event-Id": "1" },
      { "X-A": "1", "x-a": "2" },
      Object.fromEntries(Array.from({ length: MAX_WEBHOOK_HEADERS + 1 }, (_, i) => [`X-H${i}`, "v"])),
    ];
    for (const headers of bad) {
      const error = thrownBy(() => validateWebhookHeaders(headers));
      expect(isFerryError(error, "INVALID_WEBHOOK_HEADER"), JSON.stringify(headers).slice(0, 80)).to.equal(true);
      expect((error as Error).message).not.to.contain("Injected");
    }
    const headers = { Authorization: "Bearer t0k3n", "X-Env": "prod\tblue" };
    const copy = validateWebhookHeaders(headers);
    expect(copy).to.deep.equal(headers);
    expect(copy).not.to.equal(headers);
    expect(validateWebhookHeaders(undefined)).to.deep.equal({});
  });

  it("isLoopbackHost_isTrueForLocalhostThe127NetworkAndIpv6Loopback_only", () => {
    for (const host of ["localhost", "127.0.0.1", "127.255.0.9", "[::1]", "app.localhost"]) expect(isLoopbackHost(host), host).to.equal(true);
    for (const host of ["hooks.example", "128.0.0.1", "[::2]", "localhost.example"]) expect(isLoopbackHost(host), host).to.equal(false);
  });
});
