import { expect } from "chai";
import { createHmac } from "node:crypto";
import {
  DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  assertWebhook,
  signWebhook,
  verifyWebhook,
  webhookSignatureHeaders,
  type VerifyWebhookParams,
} from "../../ts/core/webhookSignature.ts";

const SECRET = "ferry_test_api_key_0123456789";
const TIMESTAMP = 1767225600;
const BODY = '{"event":"request.status.updated","timestamp":1767225600123,"data":{"status":"success","requestId":"0xab"}}';

/** The spec's rule written out directly: hex HMAC-SHA256 over "<timestamp>.<body>" keyed with the API key. */
const expectedHmac = (secret: string, timestamp: string | number, body: Buffer) =>
  createHmac("sha256", secret).update(Buffer.concat([Buffer.from(`${timestamp}.`), body])).digest("hex");

function codeOf(params: VerifyWebhookParams): string | undefined {
  const result = verifyWebhook(params);
  return result.valid ? undefined : result.error.code;
}

const headersFor = (signature: string, timestamp: string | number = TIMESTAMP) => ({
  "X-Signature-Timestamp": String(timestamp),
  "X-Signature-SHA256": signature,
});

describe("webhookSignature", () => {
  describe("signWebhook", () => {
    it("is the lower-case hex HMAC-SHA256 of `${timestamp}.${body}`", () => {
      const signature = signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: BODY });
      expect(signature).to.equal(expectedHmac(SECRET, TIMESTAMP, Buffer.from(BODY)));
      expect(signature).to.match(/^[0-9a-f]{64}$/);
    });

    it("hashes the body's exact bytes: string, Buffer and Uint8Array agree; whitespace and non-UTF-8 bytes count", () => {
      const bytes = Buffer.from(BODY);
      const fromString = signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: BODY });
      expect(signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: bytes })).to.equal(fromString);
      expect(signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: new Uint8Array(bytes) })).to.equal(fromString);
      expect(signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: `${BODY}\n` })).to.not.equal(fromString);
      const binary = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
      expect(signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: binary })).to.equal(expectedHmac(SECRET, TIMESTAMP, binary));
      expect(signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: binary })).to.not.equal(
        signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: binary.toString("utf8") }),
      );
    });

    it("accepts the timestamp as number, bigint or digits and rejects anything else", () => {
      const reference = signWebhook({ secret: SECRET, timestamp: TIMESTAMP, body: BODY });
      expect(signWebhook({ secret: SECRET, timestamp: BigInt(TIMESTAMP), body: BODY })).to.equal(reference);
      expect(signWebhook({ secret: SECRET, timestamp: String(TIMESTAMP), body: BODY })).to.equal(reference);
      for (const bad of ["", "12.5", "-1", "1e9", 1.5]) {
        expect(() => signWebhook({ secret: SECRET, timestamp: bad, body: BODY })).to.throw().with.property("code", "INVALID_INPUT");
      }
      expect(() => signWebhook({ secret: "", timestamp: TIMESTAMP, body: BODY })).to.throw().with.property("code", "INVALID_INPUT");
    });

    it("webhookSignatureHeaders gives the two headers a delivery carries", () => {
      const headers = webhookSignatureHeaders({ secret: SECRET, timestamp: TIMESTAMP, body: BODY });
      expect(headers).to.deep.equal({ "x-signature-timestamp": String(TIMESTAMP), "x-signature-sha256": expectedHmac(SECRET, TIMESTAMP, Buffer.from(BODY)) });
      expect(codeOf({ headers, rawBody: BODY, secret: SECRET, now: TIMESTAMP })).to.equal(undefined);
    });
  });

  describe("verifyWebhook", () => {
    const signature = expectedHmac(SECRET, TIMESTAMP, Buffer.from(BODY));
    const valid = { headers: headersFor(signature), rawBody: BODY, secret: SECRET, now: TIMESTAMP };

    it("accepts a good delivery from a plain record with any header case", () => {
      expect(verifyWebhook(valid)).to.deep.equal({ valid: true, timestamp: TIMESTAMP });
      expect(codeOf({ ...valid, headers: { "x-signature-timestamp": String(TIMESTAMP), "X-SIGNATURE-SHA256": signature } })).to.equal(undefined);
    });

    it("accepts a fetch Headers object, Node's one-element arrays, a Buffer body and an upper-case signature", () => {
      expect(codeOf({ ...valid, headers: new Headers(headersFor(signature)) })).to.equal(undefined);
      expect(codeOf({ ...valid, headers: { "x-signature-timestamp": [String(TIMESTAMP)], "x-signature-sha256": [signature] } })).to.equal(undefined);
      expect(codeOf({ ...valid, rawBody: Buffer.from(BODY) })).to.equal(undefined);
      expect(codeOf({ ...valid, headers: headersFor(signature.toUpperCase()) })).to.equal(undefined);
    });

    it("accepts exactly the tolerance in both directions, default 300 s", () => {
      expect(DEFAULT_WEBHOOK_TOLERANCE_SECONDS).to.equal(300);
      expect(codeOf({ ...valid, now: TIMESTAMP + 300 })).to.equal(undefined);
      expect(codeOf({ ...valid, now: TIMESTAMP - 300 })).to.equal(undefined);
      expect(codeOf({ ...valid, now: BigInt(TIMESTAMP + 10) })).to.equal(undefined);
    });

    it("rejects a timestamp one second beyond the tolerance with WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE", () => {
      expect(codeOf({ ...valid, now: TIMESTAMP + 301 })).to.equal("WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE");
      expect(codeOf({ ...valid, now: TIMESTAMP - 301 })).to.equal("WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE");
      expect(codeOf({ ...valid, now: TIMESTAMP + 11, toleranceSeconds: 10 })).to.equal("WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE");
      expect(codeOf({ ...valid, now: TIMESTAMP + 1, toleranceSeconds: 0 })).to.equal("WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE");
    });

    it("checks the timestamp before the signature (a stale replay is reported as stale)", () => {
      expect(codeOf({ ...valid, headers: headersFor("00"), now: TIMESTAMP + 1000 })).to.equal("WEBHOOK_TIMESTAMP_OUT_OF_TOLERANCE");
    });

    it("rejects a wrong secret, a changed body, a changed timestamp or a short signature with WEBHOOK_SIGNATURE_MISMATCH", () => {
      expect(codeOf({ ...valid, secret: `${SECRET}x` })).to.equal("WEBHOOK_SIGNATURE_MISMATCH");
      expect(codeOf({ ...valid, rawBody: BODY.replace("success", "failure") })).to.equal("WEBHOOK_SIGNATURE_MISMATCH");
      expect(codeOf({ ...valid, rawBody: ` ${BODY}` })).to.equal("WEBHOOK_SIGNATURE_MISMATCH");
      expect(codeOf({ ...valid, headers: headersFor(signature, TIMESTAMP + 1) })).to.equal("WEBHOOK_SIGNATURE_MISMATCH");
      expect(codeOf({ ...valid, headers: headersFor(signature.slice(0, 63)) })).to.equal("WEBHOOK_SIGNATURE_MISMATCH");
      expect(codeOf({ ...valid, headers: headersFor(`${signature}00`) })).to.equal("WEBHOOK_SIGNATURE_MISMATCH");
      expect(codeOf({ ...valid, headers: headersFor(`sha256=${signature}`) })).to.equal("WEBHOOK_SIGNATURE_MISMATCH");
    });

    it("rejects missing headers with WEBHOOK_HEADER_MISSING and malformed ones with WEBHOOK_HEADER_INVALID", () => {
      expect(codeOf({ ...valid, headers: { "x-signature-sha256": signature } })).to.equal("WEBHOOK_HEADER_MISSING");
      expect(codeOf({ ...valid, headers: { "x-signature-timestamp": String(TIMESTAMP) } })).to.equal("WEBHOOK_HEADER_MISSING");
      expect(codeOf({ ...valid, headers: new Headers() })).to.equal("WEBHOOK_HEADER_MISSING");
      expect(codeOf({ ...valid, headers: headersFor(signature, "1767225600.5") })).to.equal("WEBHOOK_HEADER_INVALID");
      expect(codeOf({ ...valid, headers: headersFor(signature, "soon") })).to.equal("WEBHOOK_HEADER_INVALID");
      expect(codeOf({ ...valid, headers: { "x-signature-timestamp": ["1", "2"], "x-signature-sha256": signature } })).to.equal("WEBHOOK_HEADER_INVALID");
    });

    it("rejects a bad clock or tolerance with INVALID_INPUT", () => {
      expect(codeOf({ ...valid, now: 1.5 })).to.equal("INVALID_INPUT");
      expect(codeOf({ ...valid, toleranceSeconds: -1 })).to.equal("INVALID_INPUT");
    });

    it("assertWebhook returns the timestamp or throws the typed error", () => {
      expect(assertWebhook(valid)).to.deep.equal({ timestamp: TIMESTAMP });
      expect(() => assertWebhook({ ...valid, secret: "other" })).to.throw().with.property("code", "WEBHOOK_SIGNATURE_MISMATCH");
    });
  });
});
