// The worker loop survives any failure to claim, and the error registry sets the log level: a
// retryable error (an unregistered one, a dropped connection) is a warning, a non-retryable one (a row
// that does not decode) an error for an operator.
import { expect } from "chai";
import { CONFIG_DEFAULTS } from "../../../ts/service/config/configSchema.ts";
import { ServiceError } from "../../../ts/service/errors/serviceError.ts";
import type { Logger } from "../../../ts/service/logging/logger.ts";
import { startWebhookWorker } from "../../../ts/service/webhooks/webhookWorker.ts";

type Line = { level: string; fields: Record<string, unknown>; msg: string };

function capture(): Logger & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, msg: string) => void lines.push({ level, fields, msg });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** A store whose every transaction fails with `error`. */
const failingStore = (error: unknown) => ({ engine: { transaction: async () => Promise.reject(error) } });

async function claimFailures(error: unknown): Promise<Line[]> {
  const { enabled: _enabled, ...settings } = CONFIG_DEFAULTS.webhooks;
  const log = capture();
  const worker = startWebhookWorker({ store: failingStore(error), settings: { ...settings, pollIntervalMs: 5 }, secretKey: new Uint8Array(32), log });
  const deadline = Date.now() + 2000;
  while (log.lines.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  await worker.stop();
  return log.lines;
}

describe("webhook worker failures", function () {
  it("webhookWorker_aRetryableClaimFailure_isLoggedAsAWarning_andRetried", async function () {
    const lines = await claimFailures(Object.assign(new Error("connection terminated"), { code: "ECONNRESET" }));
    expect(lines.length).to.be.at.least(2);
    expect(lines.map((line) => line.level)).to.satisfy((levels: string[]) => levels.every((level) => level === "warn"));
    expect(lines[0]!.fields.err).to.deep.equal({ code: "ECONNRESET", message: "connection terminated" });
  });

  it("webhookWorker_aNonRetryableClaimFailure_isLoggedAsAnError_andTheLoopGoesOn", async function () {
    const lines = await claimFailures(new ServiceError("STORED_VALUE_INVALID", "request_events.payload: not an outbox payload"));
    expect(lines.length).to.be.at.least(2);
    expect(lines.map((line) => line.level)).to.satisfy((levels: string[]) => levels.every((level) => level === "error"));
    expect((lines[0]!.fields.err as { code: string }).code).to.equal("STORED_VALUE_INVALID");
  });
});
