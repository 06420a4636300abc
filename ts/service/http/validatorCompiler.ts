/**
 * The app's schema validator: TypeBox's compiled check (as @fastify/type-provider-typebox's
 * `TypeBoxValidatorCompiler`: query strings and path params converted to the schema's types, bodies
 * taken as sent), but the error report of a value that fails is built from a bounded copy of it.
 *
 * Why: TypeBox's `Errors` walks the whole value. A 1 MiB body of 90,000 unknown keys is refused by the
 * check in well under a millisecond, but its error report took ~170 ms of CPU per request on these
 * machines (30× a 1 MiB string), blocking the event loop — four such requests delayed /health by a
 * second. The answer only ever names the first problem, so the report is built from `reportable(value)`:
 * the value with every known field, at most one unknown field per closed object
 * (`additionalProperties: false`), none per open object (an unknown field cannot be its problem) and
 * at most `maxItems + 1` elements per array. Every kind of
 * problem the full value has at the top of the report survives the cut (an unknown field, too many
 * items, a wrong type, a missing field); should the cut ever leave nothing to report, the full value
 * is reported instead.
 *
 * A value that passes is decoded by the codecs in its schema (../model/values.ts: `Address`, `Bytes32`,
 * `HexData` arrive canonical), so a route reads its ids and addresses canonical, parsed once here.
 * Schemas without a codec (most) pass their value as it is.
 */
import type { FastifySchemaCompiler } from "fastify";
import type { TSchema } from "typebox";
import { Compile } from "typebox/compile";
import { Value } from "typebox/value";
import { decodeChecked, hasCodec } from "../model/storedValue.ts";

type SchemaNode = { type?: unknown; properties?: Record<string, SchemaNode>; additionalProperties?: unknown; items?: unknown; maxItems?: unknown };

/** Deeper than any schema of the API: values nested further are reported as they are. */
const MAX_DEPTH = 32;

/** A copy of `value` that keeps what its error report needs and drops the bulk (see above). */
export function reportable(node: object, value: unknown, depth = 0): unknown {
  const schema = node as SchemaNode;
  if (depth > MAX_DEPTH || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) {
    const kept = typeof schema.maxItems === "number" && value.length > schema.maxItems + 1 ? value.slice(0, schema.maxItems + 1) : value;
    const items = typeof schema.items === "object" && schema.items !== null ? (schema.items as SchemaNode) : undefined;
    return items ? kept.map((item) => reportable(items, item, depth + 1)) : kept;
  }
  const properties = schema.properties;
  if (schema.type !== "object" || !properties) return value;
  const record = value as Record<string, unknown>;
  const extra = schema.additionalProperties;
  // Objects whose extra fields follow a schema keep every field (each may carry its own problem).
  if (extra !== true && extra !== undefined && extra !== false) return value;
  // The schema's fields (a few dozen at most). An object open to any field (`additionalProperties` true
  // or absent, e.g. the quote body, where a newer client's fields are ignored) keeps only those: an
  // unknown field can carry no problem there. A closed one also keeps the first field it does not
  // know: the walk stops there, however many keys follow.
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (Object.hasOwn(record, key)) define(copy, key, reportable(properties[key]!, record[key], depth + 1));
  }
  if (extra !== false) return copy;
  for (const key in record) {
    if (Object.hasOwn(record, key) && !Object.hasOwn(properties, key)) {
      define(copy, key, record[key]);
      break;
    }
  }
  return copy;
}

/** Sets an own enumerable property, whatever its name (`__proto__` included). */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export const boundedValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const validator = Compile(schema);
  const decodes = hasCodec(schema);
  return (value: unknown) => {
    // Only query strings, params and headers are converted (they arrive as text); bodies are not coerced.
    const converted = httpPart === "body" ? value : Value.Convert(schema, value);
    // A valid value is decoded by its schema's codecs, if it has any (e.g. `Bytes32`: canonical ids).
    if (validator.Check(converted)) return { value: decodes ? decodeChecked(schema, converted) : converted };
    const errors = validator.Errors(reportable(schema, converted));
    return { error: errors.length > 0 ? errors : validator.Errors(converted) };
  };
};
