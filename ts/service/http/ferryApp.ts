/** The Fastify instance type of the service: TypeBox schemas type every route's request and reply. */
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from "fastify";
import { Type } from "typebox";

export type FerryApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** A query string that takes no parameters: any parameter is a 400 naming it. */
export const NoQuery = Type.Object({}, { additionalProperties: false });
