/** The Fastify instance type of the service: TypeBox schemas type every route's request and reply. */
import type { FastifyBaseLogger, FastifyInstance, FastifyTypeProvider, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from "fastify";
import { Type, type Static, type StaticDecode, type TSchema } from "typebox";

/**
 * @fastify/type-provider-typebox's provider, but a route's inputs typed as decoded: the validator
 * (./validatorCompiler.ts) applies the schema's codecs, so a `Bytes32` param is a canonical `Bytes32`
 * in the handler. Replies are typed as sent (`Static`).
 */
export interface FerryTypeProvider extends FastifyTypeProvider {
  validator: this["schema"] extends TSchema ? StaticDecode<this["schema"]> : unknown;
  serializer: this["schema"] extends TSchema ? Static<this["schema"]> : unknown;
}

export type FerryApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  FerryTypeProvider
>;

/** A query string that takes no parameters: any parameter is a 400 naming it. */
export const NoQuery = Type.Object({}, { additionalProperties: false });
