/**
 * Decoding and encoding a stored value (a database column, a jsonb document) with its model schema:
 * once, where the row is read. A value that does not match its schema is a `StoredValueInvalidError`
 * naming the table, the column and the first offending field — never a crash deep in the solver.
 *
 * The check is TypeBox's compiled validator; the transform is a walk of the schema that applies each
 * codec (../model/values.ts) where it sits. TypeBox's own `Decode` clones, converts and re-checks the
 * value and measured ~1–2 ms per row here against ~5 µs for this walk — on the status route's path.
 */
import type { TSchema, StaticDecode, StaticEncode } from "typebox";
import { Compile, type Validator } from "typebox/compile";
import { ServiceError } from "../errors/serviceError.ts";

const compiled = new WeakMap<TSchema, Validator>();

function validator(schema: TSchema): Validator {
  let v = compiled.get(schema);
  if (!v) {
    v = Compile(schema) as unknown as Validator;
    compiled.set(schema, v);
  }
  return v;
}

/** `where` names the value, e.g. `requests.solver_state`; `id` the row (a requestId), for the message. */
export function decodeStored<S extends TSchema>(schema: S, value: unknown, where: string, id: string): StaticDecode<S> {
  const v = validator(schema);
  if (!v.Check(value)) {
    const first = v.Errors(value)[0];
    const field = first?.instancePath ? first.instancePath.slice(1).replaceAll("/", ".") : "";
    throw new StoredValueInvalidError(where, id, field, first?.message ?? "does not match its schema");
  }
  try {
    return transform(schema, value, "decode") as StaticDecode<S>;
  } catch (cause) {
    throw new StoredValueInvalidError(where, id, "", (cause as Error).message, cause);
  }
}

/**
 * A value its schema's check has already passed, with every codec applied (decoded): e.g. the HTTP
 * validator's (../http/validatorCompiler.ts) route inputs, whose canonical fields arrive canonical.
 */
export function decodeChecked<S extends TSchema>(schema: S, value: unknown): StaticDecode<S> {
  return transform(schema, value, "decode") as StaticDecode<S>;
}

/** Whether `schema` has a codec anywhere `decodeChecked` applies one (a value of a schema without any passes as it is). */
export function hasCodec(schema: TSchema): boolean {
  const node = schema as SchemaNode;
  if (node["~codec"]) return true;
  const children = [...(node.anyOf ?? []), ...Object.values(node.properties ?? {}), ...Object.values(node.patternProperties ?? {}), ...(node.items ? [node.items] : [])];
  return children.some((child) => hasCodec(child as TSchema));
}

/** The stored (JSON) form of a decoded value. */
export function encodeStored<S extends TSchema>(schema: S, value: StaticDecode<S>): StaticEncode<S> {
  return transform(schema, value, "encode") as StaticEncode<S>;
}

type SchemaNode = {
  "~codec"?: { decode: (value: unknown) => unknown; encode: (value: unknown) => unknown };
  anyOf?: SchemaNode[];
  type?: string;
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  items?: SchemaNode;
};

/** Applies every codec of `schema` to `value` (already checked, when decoding), in the given direction. */
function transform(schema: TSchema, value: unknown, direction: "decode" | "encode"): unknown {
  const node = schema as SchemaNode;
  if (node["~codec"]) return node["~codec"][direction](value);
  if (value === null || value === undefined) return value;
  if (node.anyOf) {
    const variants = node.anyOf.filter((variant) => variant.type !== "null");
    if (variants.length === 1) return transform(variants[0] as TSchema, value, direction);
    // Literal unions and other multi-variant unions carry no codec in this model: values pass as they are.
    return value;
  }
  if (Array.isArray(value)) return node.items ? value.map((item) => transform(node.items as TSchema, item, direction)) : value;
  if (typeof value === "object" && (node.properties || node.patternProperties)) {
    const entries = Object.entries(value as Record<string, unknown>);
    const out: Record<string, unknown> = {};
    const additional = node.patternProperties ? (Object.values(node.patternProperties)[0] as TSchema) : undefined;
    for (const [key, item] of entries) {
      const property = node.properties?.[key] ?? additional;
      if (item === undefined) continue;
      const decoded = property ? transform(property, item, direction) : item;
      // A field named __proto__ (an open HTTP body may carry one) stays a field, never the copy's prototype.
      if (key === "__proto__") Object.defineProperty(out, key, { value: decoded, enumerable: true, writable: true, configurable: true });
      else out[key] = decoded;
    }
    return out;
  }
  return value;
}

export class StoredValueInvalidError extends ServiceError {
  readonly where: string;
  readonly id: string;
  readonly field: string;
  constructor(where: string, id: string, field: string, problem: string, cause?: unknown) {
    super("STORED_VALUE_INVALID", `${where} of ${id}: ${field ? `${field} ` : ""}${problem}`, cause === undefined ? {} : { cause });
    this.where = where;
    this.id = id;
    this.field = field;
  }
}
