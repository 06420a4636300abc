/**
 * cachedApiKeyVerifier: hits, misses, expiry, bounded size, shared in-flight lookups, errors not cached.
 */
import { expect } from "chai";
import { cachedApiKeyVerifier } from "../../../ts/service/http/apiKeyCache.ts";
import type { ApiKey, ApiKeyVerifier } from "../../../ts/service/store/apiKeys.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A verifier over a fixed key table that counts its lookups. */
function countingVerifier(keys: Record<string, ApiKey>, delayMs = 0): ApiKeyVerifier & { lookups: string[]; fail: boolean } {
  const v = {
    lookups: [] as string[],
    fail: false,
    async verify(key: string) {
      v.lookups.push(key);
      if (delayMs) await sleep(delayMs);
      if (v.fail) throw new Error("database unavailable");
      return keys[key];
    },
  };
  return v;
}

describe("cachedApiKeyVerifier", () => {
  const keys = { good: { id: "key_1", rateLimit: 10 }, other: { id: "key_2" } };

  it("answers a known key from the cache within the ttl and looks it up again after", async () => {
    const inner = countingVerifier(keys);
    const cached = cachedApiKeyVerifier(inner, { ttlMs: 60 });
    expect(await cached.verify("good")).to.deep.equal(keys.good);
    expect(await cached.verify("good")).to.deep.equal(keys.good);
    expect(inner.lookups).to.deep.equal(["good"]);
    await sleep(90);
    expect(await cached.verify("good")).to.deep.equal(keys.good);
    expect(inner.lookups).to.deep.equal(["good", "good"]);
  });

  it("caches unknown keys as misses, which also expire (a key created elsewhere is seen after the ttl)", async () => {
    const table: Record<string, ApiKey> = {};
    const inner = countingVerifier(table);
    const cached = cachedApiKeyVerifier(inner, { ttlMs: 60 });
    expect(await cached.verify("late")).to.equal(undefined);
    expect(await cached.verify("late")).to.equal(undefined);
    expect(inner.lookups).to.deep.equal(["late"]);
    table.late = { id: "key_late" };
    await sleep(90);
    expect(await cached.verify("late")).to.deep.equal({ id: "key_late" });
  });

  it("a revoked key stops working once its entry expires", async () => {
    const table: Record<string, ApiKey> = { ...keys };
    const cached = cachedApiKeyVerifier(countingVerifier(table), { ttlMs: 60 });
    expect(await cached.verify("other")).to.deep.equal(keys.other);
    delete table.other;
    await sleep(90);
    expect(await cached.verify("other")).to.equal(undefined);
  });

  it("keeps distinct keys apart", async () => {
    const cached = cachedApiKeyVerifier(countingVerifier(keys), { ttlMs: 10_000 });
    expect(await cached.verify("good")).to.deep.equal(keys.good);
    expect(await cached.verify("other")).to.deep.equal(keys.other);
    expect(await cached.verify("goodx")).to.equal(undefined);
  });

  it("is bounded: the least recently used entry is evicted", async () => {
    const inner = countingVerifier(keys);
    const cached = cachedApiKeyVerifier(inner, { ttlMs: 10_000, maxEntries: 2 });
    await cached.verify("good");
    await cached.verify("x1");
    await cached.verify("x2"); // evicts "good"
    await cached.verify("good");
    expect(inner.lookups).to.deep.equal(["good", "x1", "x2", "good"]);
  });

  it("shares one lookup between concurrent verifications of the same key", async () => {
    const inner = countingVerifier(keys, 20);
    const cached = cachedApiKeyVerifier(inner, { ttlMs: 10_000 });
    const results = await Promise.all(Array.from({ length: 5 }, () => cached.verify("good")));
    expect(results).to.deep.equal(Array(5).fill(keys.good));
    expect(inner.lookups).to.deep.equal(["good"]);
  });

  it("does not cache a failed lookup: the error surfaces and the next call retries", async () => {
    const inner = countingVerifier(keys);
    const cached = cachedApiKeyVerifier(inner, { ttlMs: 10_000 });
    inner.fail = true;
    let error: unknown;
    try {
      await cached.verify("good");
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(Error);
    inner.fail = false;
    expect(await cached.verify("good")).to.deep.equal(keys.good);
    expect(inner.lookups).to.deep.equal(["good", "good"]);
  });

  it("ttl 0 returns the verifier itself (no cache)", () => {
    const inner = countingVerifier(keys);
    expect(cachedApiKeyVerifier(inner, { ttlMs: 0 })).to.equal(inner);
  });
});
