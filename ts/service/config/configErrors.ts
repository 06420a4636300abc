import { ServiceError, type ServiceErrorOptions } from "../errors/serviceError.ts";
/**
 * Typed errors of the service configuration. Messages name the offending field and the rule it
 * breaks, never its value (a value may be a private key or a database password).
 */

export const ConfigErrorCode = {
  /** The config file or an environment variable is missing, malformed or out of range. */
  CONFIG_INVALID: "CONFIG_INVALID",
} as const;

/** `field` is the dotted path of the offending field (`chains[0].rpcUrl`) or an env name (`FERRY_PORT`). */
export class ConfigInvalidError extends ServiceError {
  readonly field: string;
  constructor(field: string, message: string, options: ServiceErrorOptions = {}) {
    super(ConfigErrorCode.CONFIG_INVALID, `${field}: ${message}`, options);
    this.field = field;
  }
}
