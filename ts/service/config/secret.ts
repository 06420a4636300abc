/**
 * A value that must never reach a log or a response (private keys, credentials in DATABASE_URL).
 * Every way of turning it into text — `String()`, template literals, `JSON.stringify`,
 * `util.inspect` (what pino and console use) — yields `[redacted]`; only `reveal()` gives the value,
 * so a leak needs an explicit, greppable call.
 */
import { inspect } from "node:util";

export const REDACTED = "[redacted]";

export class Secret {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret itself. Call it only where the value is used (signing, connecting), never to log. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}
