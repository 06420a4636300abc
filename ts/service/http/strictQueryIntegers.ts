/**
 * Query strings are text; the validator converts them to the schema's types, and its conversion of
 * an `integer` takes the leading digits (`limit=1.5` would become 1). This hook runs before
 * validation and refuses, with the same 400 the validator gives, any value of an integer-typed query
 * field that is not written as an integer (optional sign, digits only). Every route's querystring
 * schema is honoured without per-route code.
 */
import type { FastifyRequest } from "fastify";
import type { FerryApp } from "./ferryApp.ts";
import { ServiceError } from "../errors/serviceError.ts";


const INTEGER_TEXT = /^-?[0-9]+$/;

type SchemaNode = { type?: unknown; anyOf?: SchemaNode[]; properties?: Record<string, SchemaNode> };

/** Whether a (TypeBox) property schema accepts integers only: `type: "integer"`, possibly inside a union of integers. */
function isIntegerSchema(node: SchemaNode | undefined): boolean {
  if (!node) return false;
  if (node.type === "integer") return true;
  return Array.isArray(node.anyOf) && node.anyOf.length > 0 && node.anyOf.every(isIntegerSchema);
}

/** The names of a querystring schema's integer-typed fields (cached per schema object). */
const integerFieldsCache = new WeakMap<object, string[]>();
export function integerQueryFields(schema: unknown): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const cached = integerFieldsCache.get(schema);
  if (cached) return cached;
  const properties = (schema as SchemaNode).properties ?? {};
  const fields = Object.keys(properties).filter((name) => isIntegerSchema(properties[name]));
  integerFieldsCache.set(schema, fields);
  return fields;
}

/** The first integer field whose raw value is not integer text, or undefined. */
export function nonIntegerQueryField(query: unknown, fields: readonly string[]): { field: string; value: unknown } | undefined {
  if (typeof query !== "object" || query === null) return undefined;
  for (const field of fields) {
    const raw = (query as Record<string, unknown>)[field];
    if (raw === undefined) continue;
    const values = Array.isArray(raw) ? raw : [raw];
    if (values.some((value) => typeof value !== "string" || !INTEGER_TEXT.test(value))) return { field, value: raw };
  }
  return undefined;
}

export function installStrictQueryIntegers(app: FerryApp): void {
  app.addHook("preValidation", async (request: FastifyRequest) => {
    const fields = integerQueryFields(request.routeOptions.schema?.querystring);
    if (fields.length === 0) return;
    const bad = nonIntegerQueryField(request.query, fields);
    if (bad) throw new ServiceError("INVALID_REQUEST", `querystring/${bad.field} must be integer`);
  });
}
