/** The `websocket` block of the service config: defaults, overrides, CONFIG_INVALID naming the field; off → no route. */
import { expect } from "chai";
import { ConfigErrorCode, ConfigInvalidError } from "../../../ts/service/config/configErrors.ts";
import { CONFIG_DEFAULTS } from "../../../ts/service/config/configSchema.ts";
import { parseConfig } from "../../../ts/service/config/parseConfig.ts";
import { createStore, type Store } from "../../../ts/service/store/createStore.ts";
import { fixtureConfig, listen } from "../http/testApp.ts";
import { upgradeRejection, wsUrl } from "./wsTestClient.ts";

function invalidField(json: unknown): string {
  try {
    parseConfig(json, {}, "/tmp");
  } catch (error) {
    expect((error as ConfigInvalidError).code).to.equal(ConfigErrorCode.CONFIG_INVALID);
    return (error as ConfigInvalidError).field;
  }
  throw new Error("accepted");
}

describe("websocket config", function () {
  it("websocketConfig_absent_givesTheDefaults", () => {
    expect(parseConfig({}, {}, "/tmp").websocket).to.deep.equal({
      enabled: true,
      path: "/ws",
      pollIntervalMs: 250,
      heartbeatMs: 30_000,
      maxBufferedBytes: 1024 * 1024,
      maxSubscriptionsPerConnection: 100,
    });
    expect(CONFIG_DEFAULTS.websocket.path).to.equal("/ws");
  });

  it("websocketConfig_givenFields_overrideOnlyThemselves", () => {
    const { websocket } = parseConfig({ websocket: { path: "/stream/v1", pollIntervalMs: 100, enabled: false } }, {}, "/tmp");
    expect(websocket).to.deep.equal({ ...CONFIG_DEFAULTS.websocket, path: "/stream/v1", pollIntervalMs: 100, enabled: false });
  });

  it("websocketConfig_invalid_isConfigInvalidNamingTheField", () => {
    expect(invalidField({ websocket: { pollIntervalMs: 0 } })).to.equal("websocket.pollIntervalMs");
    expect(invalidField({ websocket: { heartbeatMs: 10 } })).to.equal("websocket.heartbeatMs");
    expect(invalidField({ websocket: { maxBufferedBytes: 10 } })).to.equal("websocket.maxBufferedBytes");
    expect(invalidField({ websocket: { maxSubscriptionsPerConnection: 0 } })).to.equal("websocket.maxSubscriptionsPerConnection");
    expect(invalidField({ websocket: { path: "ws" } })).to.equal("websocket.path");
    expect(invalidField({ websocket: { path: "/ws?x=1" } })).to.equal("websocket.path");
    expect(invalidField({ websocket: { enabled: "yes" } })).to.equal("websocket.enabled");
    expect(invalidField({ websocket: { maxPayload: 1 } })).to.equal("websocket.maxPayload");
  });

  describe("served", function () {
    this.timeout(60_000);
    let store: Store;
    before(async () => {
      store = await createStore();
    });
    after(async () => store.close());

    it("websocketConfig_disabled_noRoute", async () => {
      const server = await listen({ config: fixtureConfig({ websocket: { enabled: false } }), deps: { store } });
      try {
        expect((await upgradeRejection(wsUrl(server.url))).status).to.equal(404);
        expect((await fetch(`${server.url}/ws`)).status).to.equal(404);
      } finally {
        await server.close();
      }
    });

    it("websocketConfig_path_servesThere", async () => {
      const server = await listen({ config: fixtureConfig({ websocket: { path: "/stream/v1" } }), deps: { store } });
      try {
        expect((await fetch(`${server.url}/stream/v1`)).status).to.equal(426);
        expect((await upgradeRejection(wsUrl(server.url))).status).to.equal(404);
      } finally {
        await server.close();
      }
    });
  });
});
