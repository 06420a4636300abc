/** ts/service/server.ts: binds 127.0.0.1 by default, logs only the redacted config, closes on SIGTERM. */
import { expect } from "chai";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AddressInfo } from "node:net";
import { loadConfig } from "../../../ts/service/config/loadConfig.ts";
import { closeOnSignals, isSecondSignal, SAME_SIGNAL_WINDOW_MS, startServer } from "../../../ts/service/server.ts";
import { createStore } from "../../../ts/service/store/createStore.ts";
import { logCapture } from "./testApp.ts";

const KEYS = {
  FERRY_ALLOCATOR_KEY: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  FERRY_ATTESTER_KEY: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  FERRY_SOLVER_KEY: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  FERRY_RELAYER_KEY: "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
};

describe("server.ts", function () {
  it("listens on 127.0.0.1 when no host is configured, and logs the config without secrets", async function () {
    const config = await loadConfig({ env: { ...KEYS, FERRY_PORT: "0", DATABASE_URL: "postgres://ferry:pw-12345@localhost/ferry" } });
    expect(config.server.host).to.equal("127.0.0.1");
    const logs = logCapture();
    // DATABASE_URL above is only there to be redacted: the store is given (and stays the caller's).
    const store = await createStore();
    const server = await startServer({ config, logger: logs.logger, deps: { checks: [], store } });
    try {
      const address = server.app.server.address() as AddressInfo;
      expect(address.address).to.equal("127.0.0.1");
      expect((await fetch(`${server.url}/health`)).status).to.equal(200);
      const log = logs.lines.join("");
      expect(log).to.contain("ferry service listening");
      expect(log).to.contain("[redacted]");
      for (const key of Object.values(KEYS)) {
        expect(log).not.to.contain(key.slice(2));
      }
      expect(log).not.to.contain("pw-12345");
    } finally {
      await server.close();
      await store.close();
    }
  });

  it("opens PGlite under database.dataDir with a database readiness check, and closes it on shutdown", async function () {
    const dataDir = join(mkdtempSync(join(tmpdir(), "ferry-server-")), "data");
    try {
      const config = await loadConfig({ env: { FERRY_PORT: "0", FERRY_DATA_DIR: dataDir } });
      const server = await startServer({ config });
      try {
        const ready = (await (await fetch(`${server.url}/ready`)).json()) as { checks: { name: string; ok: boolean }[] };
        expect(ready.checks).to.deep.include({ name: "database", ok: true });
        const status = await fetch(`${server.url}/intents/status/v3?requestId=0x${"ab".repeat(32)}`);
        expect(status.status).to.equal(404);
      } finally {
        await server.close();
      }
      // The store was closed with the server: the data folder opens again.
      const reopened = await createStore({ dataDir });
      await reopened.close();
    } finally {
      rmSync(dirname(dataDir), { recursive: true, force: true });
    }
  });

  it("closes the server on SIGTERM and exits 0", async function () {
    const dataDir = mkdtempSync(join(tmpdir(), "ferry-server-"));
    const config = await loadConfig({ env: { FERRY_PORT: "0", FERRY_DATA_DIR: dataDir } });
    const server = await startServer({ config, deps: { checks: [] } });
    // A private emitter stands in for the process, so the test runner's own handlers stay out of it.
    const signals = new EventEmitter();
    const exited = new Promise<number>((resolve) => {
      const remove = closeOnSignals(server, (code) => {
        remove();
        resolve(code);
      }, signals as unknown as NodeJS.Process);
    });
    signals.emit("SIGTERM", "SIGTERM");
    expect(await exited).to.equal(0);
    expect(server.app.server.listening).to.equal(false);
    await fetch(`${server.url}/health`).then(
      () => expect.fail("still listening"),
      () => {},
    );
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("one Ctrl-C delivered twice at once (the process group and npm/npx forwarding it) still stops cleanly: exit 0", async function () {
    const dataDir = mkdtempSync(join(tmpdir(), "ferry-server-"));
    const config = await loadConfig({ env: { FERRY_PORT: "0", FERRY_DATA_DIR: dataDir } });
    const server = await startServer({ config, deps: { checks: [] } });
    const signals = new EventEmitter();
    const codes: number[] = [];
    const exited = new Promise<void>((resolve) => {
      const remove = closeOnSignals(server, (code) => {
        codes.push(code);
        if (code === 0) {
          remove();
          resolve();
        }
      }, signals as unknown as NodeJS.Process);
    });
    signals.emit("SIGINT", "SIGINT");
    signals.emit("SIGINT", "SIGINT");
    await exited;
    expect(codes).to.deep.equal([0]);
    expect(isSecondSignal(0, SAME_SIGNAL_WINDOW_MS - 1)).to.equal(false);
    expect(isSecondSignal(0, SAME_SIGNAL_WINDOW_MS)).to.equal(true);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
