import { expect } from "chai";
import { isFerryError } from "../../../ts/core/errors.ts";
import { apiKeyStore, hashApiKey } from "../../../ts/service/store/apiKeys.ts";
import { describeEachEngine } from "./engines.ts";

describeEachEngine("api keys", (engine) => {
  const keys = () => apiKeyStore(engine.store, engine.clock.now);

  it("returns the plaintext once and stores only its SHA-256 hash", async () => {
    const created = await keys().createApiKey("integrator", 5000);
    expect(created.key).to.match(/^ferry_[A-Za-z0-9_-]{43}$/);
    expect(created).to.include({ name: "integrator", rateLimit: 5000 });
    const { rows } = await engine.store.engine.query<{ key_hash: string }>("SELECT * FROM api_keys");
    expect(rows).to.have.length(1);
    expect(rows[0]!.key_hash).to.equal(hashApiKey(created.key));
    expect(JSON.stringify(rows)).to.not.include(created.key);
  });

  it("verifies a created key and rejects unknown ones", async () => {
    const created = await keys().createApiKey("a");
    expect(await keys().verifyApiKey(created.key)).to.deep.equal({ id: created.id, name: "a", rateLimit: null });
    expect(await keys().verify(created.key)).to.deep.equal({ id: created.id, name: "a", rateLimit: null });
    expect(await keys().verifyApiKey(`${created.key}x`)).to.equal(undefined);
    expect(await keys().verifyApiKey("")).to.equal(undefined);
  });

  it("revoked keys fail verification and stay listed", async () => {
    const a = await keys().createApiKey("a");
    engine.clock.ms += 1000;
    const b = await keys().createApiKey("b", 10);
    engine.clock.ms += 1000;
    expect(await keys().revokeApiKey(a.id)).to.equal(true);
    expect(await keys().revokeApiKey(a.id)).to.equal(false);
    expect(await keys().revokeApiKey("key_unknown")).to.equal(false);
    expect(await keys().verifyApiKey(a.key)).to.equal(undefined);
    expect(await keys().verifyApiKey(b.key)).to.deep.equal({ id: b.id, name: "b", rateLimit: 10 });
    const listed = await keys().listApiKeys();
    expect(listed.map((k) => [k.id, k.name, k.rateLimit, k.createdAt, k.revokedAt])).to.deep.equal([
      [a.id, "a", null, "2026-01-01T00:00:00.000Z", "2026-01-01T00:00:02.000Z"],
      [b.id, "b", 10, "2026-01-01T00:00:01.000Z", null],
    ]);
  });

  it("createApiKey_rejectsARateLimitThatIsNotAPositiveInteger_withInvalidInput", async () => {
    for (const rateLimit of [0, -1, 1.5]) {
      let error: unknown;
      await keys().createApiKey("x", rateLimit).catch((e: unknown) => (error = e));
      expect(isFerryError(error, "INVALID_INPUT"), String(error)).to.equal(true);
    }
    expect(await keys().listApiKeys()).to.deep.equal([]);
  });
});
